import type { Organization } from '@cambio/sdk';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { op } from './api.ts';
import { shown } from './errors.ts';
import { t } from './i18n.ts';
import { stateWord } from './states.ts';

/**
 * Search organizations by name or id and choose one (a radio list, keyboard-friendly). When the
 * search endpoint is missing, an exact organization id still works: it is read back and shown.
 */
export function OrganizationPicker({ value, onChange }: { value: Organization | null; onChange: (o: Organization | null) => void }) {
  const [text, setText] = useState('');
  const id = useId();
  const q = text.trim();
  const found = useQuery({
    queryKey: ['organizations', 'search', q],
    enabled: q.length >= 2,
    queryFn: async (): Promise<Organization[]> => {
      try {
        return (await op.organizations.list({ search: q, limit: 10 })).items;
      } catch (e) {
        if (shown(e).status !== 404) throw e;
        return [await op.organizations.get(q)]; // no search on this server: an exact id
      }
    },
  });
  return (
    <div className="picker">
      <div className="field">
        <label htmlFor={id}>{t('picker.label')}</label>
        <p className="hint" id={`${id}-hint`}>
          {t('picker.hint')}
        </p>
        <input
          id={id}
          type="search"
          value={text}
          onChange={(e) => setText(e.target.value)}
          aria-describedby={`${id}-hint`}
          autoComplete="off"
        />
      </div>
      {found.isFetching && (
        <p role="status" className="small">
          {t('picker.searching')}
        </p>
      )}
      {found.error && q.length >= 2 && (
        <p className="small" role="status">
          {t('picker.none', { q })}
        </p>
      )}
      {found.data &&
        (found.data.length === 0 ? (
          <p className="small" role="status">
            {t('picker.none', { q })}
          </p>
        ) : (
          <fieldset>
            <legend>{t('picker.matching')}</legend>
            {found.data.map((o) => (
              <label key={o.id} className="choice">
                <input type="radio" name={`${id}-org`} checked={value?.id === o.id} onChange={() => onChange(o)} />
                {o.name} <code className="small">{o.id}</code> <span className="small">({stateWord(o.status) ?? o.status})</span>
              </label>
            ))}
          </fieldset>
        ))}
    </div>
  );
}
