import { t, type UnwrapSchema } from 'elysia';
import { nullable, optionalText as text } from '#api/lib/schema.ts';
import { ACTIVE_ERROR, WAREHOUSE_LIMITS, warehouseFieldError } from './rules.ts';

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

const WAREHOUSE_BODY = "Send the warehouse's fields as JSON: Name, Address Line 1, City, State, Postal Code and Country as text, Active as true or false.";
const field = (name: string) => text(WAREHOUSE_LIMITS[name], warehouseFieldError(name));
export const WarehouseBody = t.Object(
  {
    name: field('name'),
    addressLine1: field('addressLine1'),
    addressLine2: field('addressLine2'),
    city: field('city'),
    state: field('state'),
    postalCode: field('postalCode'),
    country: field('country'),
    contactPerson: field('contactPerson'),
    contactPhone: field('contactPhone'),
    isActive: t.Optional(t.Union([t.Boolean(), t.Null()], { error: ACTIVE_ERROR })),
  },
  { error: WAREHOUSE_BODY },
);

/** An open request that ships to a warehouse: the admin sees them before deleting it. */
export const OpenRequest = t.Object({ id: t.String(), productName: t.String(), customerEmail: t.String(), status: t.String() });

export type WarehouseInfo = UnwrapSchema<typeof WarehouseInfo>;
export type Warehouse = UnwrapSchema<typeof Warehouse>;
export type WarehouseBody = UnwrapSchema<typeof WarehouseBody>;
export type OpenRequest = UnwrapSchema<typeof OpenRequest>;
