'use client';

import { Pencil, Plus } from 'lucide-react';
import { useId, useState, useTransition, type FormEvent } from 'react';
import { useRouter } from 'waku';
import type { Warehouse } from '#api/modules/warehouses/model.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '#src/components/ui/dialog.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { addressProblem, missingFieldsMessage, WAREHOUSE_FIELD_LABELS, WAREHOUSE_LIMITS } from '#api/modules/warehouses/rules.ts';
import { LengthHint, lengthHintShown } from '#src/components/ui/length-hint.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { ErrorAlert } from './error-alert.tsx';

export const SAVE_FAILED = 'Failed to save warehouse';

type TextField = 'name' | 'addressLine1' | 'addressLine2' | 'city' | 'state' | 'postalCode' | 'country' | 'contactPerson' | 'contactPhone';
type Form = Record<TextField, string> & { isActive: boolean };

/** The dialog's fields in order; the required ones are the API's, the labels its own (warehouses/rules.ts). */
const FIELDS: { name: TextField; label: string; required: boolean; autoComplete?: string; wide?: boolean }[] = (
  [
    { name: 'name', required: true, wide: true },
    { name: 'addressLine1', required: true, autoComplete: 'address-line1', wide: true },
    { name: 'addressLine2', required: false, autoComplete: 'address-line2', wide: true },
    { name: 'city', required: true, autoComplete: 'address-level2' },
    { name: 'state', required: true, autoComplete: 'address-level1' },
    { name: 'postalCode', required: true, autoComplete: 'postal-code' },
    { name: 'country', required: true, autoComplete: 'country-name' },
    { name: 'contactPerson', required: false, autoComplete: 'name' },
    { name: 'contactPhone', required: false, autoComplete: 'tel' },
  ] as const
).map((field) => ({ ...field, label: WAREHOUSE_FIELD_LABELS[field.name] ?? field.name }));

export { missingFieldsMessage };

function formOf(warehouse?: Warehouse): Form {
  const form = { isActive: warehouse ? warehouse.isActive !== false : true } as Form;
  for (const field of FIELDS) form[field.name] = warehouse?.[field.name] ?? '';
  return form;
}

/** Add (no `warehouse`) or edit a warehouse: every field and the Active switch. */
export function WarehouseDialog({ warehouse }: { warehouse?: Warehouse }) {
  const router = useRouter();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<Form>(() => formOf(warehouse));
  const [error, setError] = useState<{ fallback: string; detail?: string | null } | null>(null);
  const [invalid, setInvalid] = useState<TextField[]>([]);
  const [pending, startTransition] = useTransition();
  const title = warehouse ? 'Edit Warehouse' : 'Add Warehouse';

  const onOpenChange = (next: boolean) => {
    if (next) {
      setForm(formOf(warehouse));
      setError(null);
      setInvalid([]);
    }
    setOpen(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const missing = FIELDS.filter((f) => f.required && !form[f.name].trim()).map((f) => f.name);
    setInvalid(missing);
    if (missing.length > 0) {
      setError({ fallback: missingFieldsMessage(missing) });
      return;
    }
    const problem = addressProblem(form);
    if (problem) {
      setInvalid([problem.field as TextField]);
      setError({ fallback: problem.message });
      return;
    }
    setError(null);
    startTransition(async () => {
      const body = { ...form };
      const result = warehouse
        ? await apiCall<Warehouse>(`/api/admin/warehouses/${warehouse.id}`, { method: 'PUT', body })
        : await apiCall<Warehouse>('/api/admin/warehouses', { method: 'POST', body });
      if (!result.ok) {
        setError({ fallback: SAVE_FAILED, detail: result.error });
        return;
      }
      setOpen(false);
      flash(warehouse ? `Warehouse "${form.name.trim()}" saved.` : `Warehouse "${form.name.trim()}" added.`);
      await router.reload();
    });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        {warehouse ? (
          <Button type="button" variant="ghost" size="icon" aria-label={`Edit ${warehouse.name}`}>
            <Pencil aria-hidden="true" />
          </Button>
        ) : (
          <Button type="button">
            <Plus aria-hidden="true" />
            Add Warehouse
          </Button>
        )}
      </DialogTrigger>
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>Fields marked * are required. Customers ship approved items to this address.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} noValidate className="flex flex-col gap-4" aria-label={title}>
          {error ? <ErrorAlert fallback={error.fallback} error={error.detail} /> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            {FIELDS.map((field) => (
              <div key={field.name} className={field.wide ? 'flex flex-col gap-2 sm:col-span-2' : 'flex flex-col gap-2'}>
                <Label htmlFor={`${id}-${field.name}`}>
                  {field.label}
                  {field.required ? (
                    <span aria-hidden="true" className="text-destructive">
                      *
                    </span>
                  ) : (
                    <span className="font-normal text-muted-foreground">(Optional)</span>
                  )}
                </Label>
                <Input
                  id={`${id}-${field.name}`}
                  name={field.name}
                  value={form[field.name]}
                  onChange={(event) => setForm((f) => ({ ...f, [field.name]: event.target.value }))}
                  required={field.required}
                  aria-invalid={invalid.includes(field.name) || undefined}
                  autoComplete={field.autoComplete}
                  type={field.name === 'contactPhone' ? 'tel' : 'text'}
                  maxLength={WAREHOUSE_LIMITS[field.name]}
                  aria-describedby={lengthHintShown(form[field.name].length, WAREHOUSE_LIMITS[field.name]!) ? `${id}-${field.name}-length` : undefined}
                />
                <LengthHint id={`${id}-${field.name}-length`} label={field.label} length={form[field.name].length} max={WAREHOUSE_LIMITS[field.name]!} />
              </div>
            ))}
          </div>
          <div className="flex items-center gap-3">
            <Switch id={`${id}-active`} checked={form.isActive} onCheckedChange={(isActive) => setForm((f) => ({ ...f, isActive }))} />
            <Label htmlFor={`${id}-active`}>Active</Label>
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? 'Saving...' : warehouse ? 'Save Changes' : 'Add Warehouse'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
