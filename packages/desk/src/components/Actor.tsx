import { actorWord } from '../features/audit/words.ts';

/**
 * A person by name, with their email and id in small print; other actors (the bootstrap token, the service,
 * someone not signed in) in words, their recorded identifier kept in small print where it tells them apart.
 */
export function Actor({ actor, name, email }: { actor: string; name: string | null; email: string | null }) {
  if (!name) {
    const word = actorWord(actor);
    if (!word) return <code>{actor}</code>;
    const id = actor.includes(':') && !actor.startsWith('bootstrap:') && !actor.startsWith('system') ? actor : null;
    return (
      <span className="actor">
        {word}
        {id && (
          <>
            {' '}
            <span className="small">
              (<code>{id}</code>)
            </span>
          </>
        )}
      </span>
    );
  }
  return (
    <span className="actor">
      <strong>{name}</strong>{' '}
      <span className="small">
        ({email ? `${email} · ` : ''}
        <code>{actor}</code>)
      </span>
    </span>
  );
}
