import { Elysia, t } from 'elysia';
import type { AppContext } from '#api/context.ts';
import { ErrorBody } from '#api/lib/schema.ts';
import type { AuthPlugin } from '#api/modules/auth/plugin.ts';
import { BlockEntry, BlockParams, NewBlockBody } from './model.ts';
import { listBlocks } from './queries.ts';
import { addBlock, removeBlock } from './service.ts';

const adminOnly = { 401: ErrorBody, 403: ErrorBody };

/** The block list (admin only). Risk flags are read on the admin request detail. */
export function riskRoutes(ctx: AppContext, auth: AuthPlugin) {
  return new Elysia({ prefix: '/admin/risk', tags: ['Admin: risk'] })
    .use(auth)
    .get('/blocks', () => listBlocks(ctx.db), {
      admin: true,
      response: { 200: t.Array(BlockEntry), ...adminOnly },
      detail: { summary: 'The block list', description: 'Emails and @domains whose trade-in requests are refused, newest first, with the reason (for admins only).' },
    })
    .post('/blocks', async ({ body, user, status }) => status(201, await addBlock(ctx, body, user.email)), {
      admin: true,
      body: NewBlockBody,
      response: { 201: BlockEntry, 400: ErrorBody, 409: ErrorBody, ...adminOnly },
      detail: {
        summary: 'Block an email or a domain',
        description:
          'Adds `name@example.com` or `@example.com` (which also covers its subdomains) with a reason. A blocked customer\'s submission is refused with a neutral 403 that never shows the reason. The same entry twice is 409.',
      },
    })
    .delete('/blocks/:id', async ({ params }) => removeBlock(ctx, { id: params.id }), {
      admin: true,
      params: BlockParams,
      response: { 200: BlockEntry, 400: ErrorBody, 404: ErrorBody, ...adminOnly },
      detail: { summary: 'Unblock', description: 'Removes a block list entry; the customer can submit again at once. Answers the removed entry.' },
    });
}
