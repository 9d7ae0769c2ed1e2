/**
 * The browser-test harness of both web apps (portal and desk): the real service (buildApp on the
 * embedded store in memory, sandbox, listening on a free port) and one Debian Chromium driven by
 * playwright-core. The apps are those `npm ci` built (scripts/build.mjs), never rebuilt per test.
 *
 * A suite calls `browserSuite()` once: without /usr/bin/chromium its tests are skipped with a message
 * saying so, except under CI (which installs it in .ci/run), where a missing browser is a failure.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { makeHarness, OPERATOR_TOKEN, type Harness } from '../harness.ts';
import { defaultWebApps } from '../../src/http/plugins/web-apps.ts';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Why the browser tests cannot run here, or null when they can. Under CI a missing browser throws. */
export function browserSkipReason(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const msg = `browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install -y chromium; .ci/run installs it)`;
  if (process.env.CI) throw new Error(`${msg} — but CI must run them`);
  return msg;
}

/** Fails early, and says how to fix it, when an app was not built (npm ci / npm run build does it). */
export function requireBuilt(app: 'portal' | 'desk'): void {
  const dir = defaultWebApps().find((a) => a.name === app)!.dir;
  if (!existsSync(join(dir, 'index.html'))) throw new Error(`${dir}/index.html is missing: run \`npm run build\` (npm ci runs it)`);
}

export interface Service {
  h: Harness;
  /** `http://127.0.0.1:<port>` */
  baseUrl: string;
  operatorToken: string;
  close(): Promise<void>;
}

/** The whole service on the embedded store in memory, listening on 127.0.0.1 and a free port; `deps`: adapters a test stands in (mail). */
export async function startService(
  env: Record<string, string> = {},
  deps: NonNullable<Parameters<typeof makeHarness>[0]>['deps'] = {},
): Promise<Service> {
  const h = await makeHarness({ env: { CAMBIO_MODE: 'sandbox', ...env }, deps });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = h.app.server.address() as AddressInfo;
  return { h, baseUrl: `http://127.0.0.1:${port}`, operatorToken: OPERATOR_TOKEN, close: () => h.close() };
}

export interface BrowserHandle {
  browser: Browser;
  /** A fresh context (its own cookies): one per person in a test. */
  context(opts?: { width?: number; height?: number; locale?: string }): Promise<BrowserContext>;
  close(): Promise<void>;
}

/**
 * One headless Chromium per test process, shared by the files the process runs one after the other (a
 * group: scripts/test.mjs), and no traffic of its own: a file gets fresh contexts of its own, and its
 * `close()` closes them. The browser closes a few seconds after the last file let go of it, unless another
 * file takes it first (at the end of a run the test runner's exit ends it too). Playwright gives it a
 * fresh, empty profile in a temporary directory of its own (and removes it on close).
 */
const LINGER_MS = 5_000;
let shared: Promise<Browser> | null = null;
let holders = 0;
let lingering: NodeJS.Timeout | null = null;

function sharedBrowser(): Promise<Browser> {
  shared ??= chromium
    .launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-gpu',
        '--disable-sync',
        '--disable-quic',
        '--disable-dev-shm-usage',
      ],
    })
    .then(
      (b) => {
        b.on('disconnected', () => {
          shared = null;
        });
        return b;
      },
      (e: unknown) => {
        shared = null;
        throw e;
      },
    );
  return shared;
}

export async function launchBrowser(): Promise<BrowserHandle> {
  if (lingering) {
    clearTimeout(lingering);
    lingering = null;
  }
  holders++;
  let browser: Browser;
  try {
    browser = await sharedBrowser();
  } catch (e) {
    holders--;
    throw e;
  }
  const contexts = new Set<BrowserContext>();
  let closed = false;
  return {
    browser,
    context: async (o = {}) => {
      const c = await browser.newContext({ viewport: { width: o.width ?? 1280, height: o.height ?? 800 }, locale: o.locale ?? 'en-GB' });
      contexts.add(c);
      c.on('close', () => contexts.delete(c));
      return c;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      for (const c of [...contexts]) await c.close();
      if (--holders > 0) return;
      lingering = setTimeout(() => {
        lingering = null;
        const b = shared;
        shared = null;
        void b
          ?.then((x) => x.close())
          .catch(() => {
            /* already gone */
          });
      }, LINGER_MS);
    },
  };
}

/**
 * What went wrong in a page that a test should see: script errors, console errors (a refused
 * request, a CSP violation) and requests to any other origin (the apps use no CDN).
 */
export function watch(page: Page, origin: string): { problems: string[] } {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) problems.push(`request to another origin: ${u}`);
  });
  return { problems };
}

const requireFromHere = createRequire(import.meta.url);
let axeSource: string | null = null;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/**
 * Runs axe-core (from npm) in the page and returns its serious and critical violations. The script is
 * evaluated through the DevTools protocol, so the page's CSP stays as strict as it is for people.
 */
export async function axeSerious(page: Page): Promise<AxeViolation[]> {
  axeSource ??= readFileSync(requireFromHere.resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(`${axeSource}\n;void 0`);
  const result = (await page.evaluate(`window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  })))`)) as AxeViolation[];
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** A readable summary for an assertion message. */
export function describeViolations(vs: AxeViolation[]): string {
  return vs.map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.join(', ')}`).join('\n');
}

/**
 * Screenshots for the docs, taken only when CAMBIO_SCREENSHOTS names a directory (relative to the
 * repository root), so a normal test run writes nothing into the checkout: `<dir>/<name>-<width>.png`.
 */
export async function screenshot(page: Page, name: string, widths: number[] = [1280, 375]): Promise<void> {
  const dir = process.env.CAMBIO_SCREENSHOTS;
  if (!dir) return;
  const out = join(repoRoot, dir);
  mkdirSync(out, { recursive: true });
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of widths) {
    await page.setViewportSize({ width, height: before.height });
    await page.waitForTimeout(50);
    await page.screenshot({ path: join(out, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(before);
}
