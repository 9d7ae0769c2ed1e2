/** A member's role: the permissions of the portal (docs/operator-guide.md, docs/design/people-and-apps.md). */
export const PERMISSIONS = [
  'portal:read',
  'portal:trade',
  'portal:deposit',
  'portal:destinations',
  'portal:withdraw',
  'portal:api_keys',
  'portal:team',
  'portal:webhooks',
] as const;

export function PermissionsPicker({ legend, value, onChange }: { legend: string; value: string[]; onChange: (v: string[]) => void }) {
  return (
    <fieldset className="checks">
      <legend>{legend}</legend>
      {PERMISSIONS.map((p) => (
        <label key={p} className="choice">
          <input
            type="checkbox"
            checked={value.includes(p)}
            onChange={(e) => onChange(e.target.checked ? [...value, p] : value.filter((x) => x !== p))}
          />
          {p}
        </label>
      ))}
    </fieldset>
  );
}
