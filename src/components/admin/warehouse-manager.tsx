import type { Warehouse } from '#api/modules/warehouses/model.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx';
import { WarehouseDelete } from './warehouse-delete.tsx';
import { WarehouseDialog } from './warehouse-dialog.tsx';

export const NO_WAREHOUSES = 'No warehouses have been added yet.';

/** Tab 5: the warehouses customers ship to, with add, edit and delete. */
export function WarehouseManager({ warehouses }: { warehouses: Warehouse[] }) {
  return (
    <div className="flex flex-col gap-3">
      <div className="flex justify-end">
        <WarehouseDialog />
      </div>
      {warehouses.length === 0 ? (
        <p className="rounded-md border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">{NO_WAREHOUSES}</p>
      ) : (
        <Table containerClassName="border">
          <caption className="sr-only">Warehouses</caption>
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead>Name</TableHead>
              <TableHead>Address</TableHead>
              <TableHead>Contact</TableHead>
              <TableHead className="text-right">Actions</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {warehouses.map((w) => (
              <TableRow key={w.id} data-testid="warehouse-row">
                <TableCell className="align-top">
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="font-medium">{w.name}</span>
                    {w.isActive !== false ? <Badge variant="success">Active</Badge> : <Badge variant="outline">Inactive</Badge>}
                  </div>
                </TableCell>
                <TableCell className="align-top whitespace-normal">
                  <address className="min-w-48 not-italic">
                    <span className="block">{w.addressLine1}</span>
                    {w.addressLine2 ? <span className="block">{w.addressLine2}</span> : null}
                    <span className="block">
                      {w.city}, {w.state} {w.postalCode}
                    </span>
                    <span className="block text-muted-foreground">{w.country}</span>
                  </address>
                </TableCell>
                <TableCell className="align-top">
                  {w.contactPerson || w.contactPhone ? (
                    <>
                      {w.contactPerson ? <span className="block">{w.contactPerson}</span> : null}
                      {w.contactPhone ? <span className="block text-muted-foreground">{w.contactPhone}</span> : null}
                    </>
                  ) : (
                    <span className="text-muted-foreground">—</span>
                  )}
                </TableCell>
                <TableCell className="text-right align-top">
                  <div className="inline-flex gap-1">
                    <WarehouseDialog warehouse={w} />
                    <WarehouseDelete id={w.id} name={w.name} />
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
