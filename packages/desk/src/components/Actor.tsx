/** A person by name, with their email and id in small print; other actors (bootstrap, system) as recorded. */
export function Actor({ actor, name, email }: { actor: string; name: string | null; email: string | null }) {
  if (!name) return <code>{actor}</code>;
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
