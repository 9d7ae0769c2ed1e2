import { PERMISSIONS } from '@cambio/contract';
import { useId, useState } from 'react';
import type { MessageKey } from '../lib/i18n.ts';
import { usePortal } from '../lib/portal-context.ts';
import { ScopePicker } from './ScopePicker.tsx';

type Preset = 'admin' | 'trader' | 'viewer' | 'custom';
const TRADER = ['portal:read', 'portal:trade', 'portal:deposit'];
const VIEWER = ['portal:read'];

const same = (a: string[], b: string[]) => a.length === b.length && a.every((p) => b.includes(p));

/** The preset a role is, for the team list: every permission there is is Admin; Trader and Viewer exactly; else Custom. */
export function presetOf(permissions: string[]): Preset {
  if (same(permissions, [...PERMISSIONS])) return 'admin';
  if (same(permissions, TRADER)) return 'trader';
  if (same(permissions, VIEWER)) return 'viewer';
  return 'custom';
}

/**
 * A role as a person thinks of it: Admin (every permission one holds oneself), Trader, Viewer, each
 * with what it allows, or Custom, which shows the raw permissions. Only presets within one's own role
 * are offered (the server checks ⊆ too); the permissions sent are always the explicit list.
 */
export function RolePicker({
  legend,
  own,
  chosen,
  onChange,
}: {
  legend: string;
  own: string[];
  chosen: string[];
  onChange: (v: string[]) => void;
}) {
  const { t } = usePortal();
  const id = useId();
  const presets: Array<{ name: Preset; permissions: string[] }> = [
    { name: 'admin' as const, permissions: own },
    { name: 'trader' as const, permissions: TRADER },
    { name: 'viewer' as const, permissions: VIEWER },
  ].filter((p) => p.permissions.every((x) => own.includes(x)));
  const matching = presets.find((p) => same(p.permissions, chosen))?.name ?? 'custom';
  const [custom, setCustom] = useState(matching === 'custom');
  const current: Preset = custom ? 'custom' : matching;
  const choose = (name: Preset) => {
    setCustom(name === 'custom');
    const p = presets.find((x) => x.name === name);
    if (p) onChange([...p.permissions]);
  };
  return (
    <>
      <fieldset>
        <legend>{legend}</legend>
        {[...presets.map((p) => p.name), 'custom' as const].map((name) => (
          <label key={name} className="choice preset">
            <input
              type="radio"
              name={`${id}-preset`}
              checked={current === name}
              onChange={() => choose(name)}
              aria-describedby={`${id}-${name}`}
            />
            <span>
              <strong>{t(`roles.${name}` as MessageKey)}</strong>{' '}
              <span id={`${id}-${name}`} className="small muted">
                {t(`roles.${name}Hint` as MessageKey)}
              </span>
            </span>
          </label>
        ))}
      </fieldset>
      {current === 'custom' && <ScopePicker legend={t('team.permissions')} offered={own} chosen={chosen} onChange={onChange} />}
    </>
  );
}
