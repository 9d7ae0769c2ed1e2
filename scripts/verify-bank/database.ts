import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A database of its own on the server of the admin URL, dropped at the end of the run. */
export async function createDatabase(adminUrl: string): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  const name = `cambio_verify_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    name,
    drop: async () => {
      const d = new pg.Client({ connectionString: adminUrl });
      await d.connect();
      await d.query(`drop database if exists ${name} with (force)`);
      await d.end();
    },
  };
}
