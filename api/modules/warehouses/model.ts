import { t, type UnwrapSchema } from 'elysia';
import { nullable, optionalText as text } from '#api/lib/schema.ts';

/** The JSON shapes of warehouses: the list and the admin's form, and the address a request keeps. */

const warehouseFields = {
  id: t.String(),
  name: t.String(),
  addressLine1: t.String(),
  addressLine2: nullable(t.String()),
  city: t.String(),
  state: t.String(),
  postalCode: t.String(),
  country: t.String(),
  contactPerson: nullable(t.String()),
  contactPhone: nullable(t.String()),
};

/** The approved warehouse's address as it was at approval. */
export const WarehouseInfo = t.Object(warehouseFields);

export const Warehouse = t.Object({ ...warehouseFields, isActive: t.Boolean() });

const WAREHOUSE_BODY = 'Warehouse fields are text (an address line at most 500 characters) and isActive is true or false.';
export const WarehouseBody = t.Object(
  {
    name: text(200, WAREHOUSE_BODY),
    addressLine1: text(500, WAREHOUSE_BODY),
    addressLine2: text(500, WAREHOUSE_BODY),
    city: text(200, WAREHOUSE_BODY),
    state: text(200, WAREHOUSE_BODY),
    postalCode: text(50, WAREHOUSE_BODY),
    country: text(200, WAREHOUSE_BODY),
    contactPerson: text(200, WAREHOUSE_BODY),
    contactPhone: text(100, WAREHOUSE_BODY),
    isActive: t.Optional(t.Union([t.Boolean(), t.Null()], { error: WAREHOUSE_BODY })),
  },
  { error: WAREHOUSE_BODY },
);

/** An open request that ships to a warehouse: the admin sees them before deleting it. */
export const OpenRequest = t.Object({ id: t.String(), productName: t.String(), customerEmail: t.String(), status: t.String() });

export type WarehouseInfo = UnwrapSchema<typeof WarehouseInfo>;
export type Warehouse = UnwrapSchema<typeof Warehouse>;
export type WarehouseBody = UnwrapSchema<typeof WarehouseBody>;
export type OpenRequest = UnwrapSchema<typeof OpenRequest>;
