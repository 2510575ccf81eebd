import { createServer } from 'node:http';
import { assertTcpPort, CairnError, isLoopbackHost, listenOn } from '@cairn/core';
import type { Cairn } from '@cairn/engine';
import { createDashboardAuth, SESSION_COOKIE } from './dashboard-auth';
import { type DashboardState, dashboardHandler } from './dashboard-handler';
import { engineMaintenance } from './engine-maintenance';
import type { MaintenanceSource } from './maintenance-source';
import type { Refusal } from './request-guard';
import { defaultUiDir, loadAssets } from './static-assets';

export interface DashboardOptions {
  /** Default 0: a free port (read it from the handle). */
  port?: number;
  /** Default `127.0.0.1`. Only loopback hosts are accepted: `0.0.0.0` is refused. */
  host?: string;
  /** Consolidation proposals and staleness; default the engine's (engine-maintenance.ts). */
  maintenance?: MaintenanceSource;
  /** The built UI's folder; default the package's `dist/ui/`. */
  uiDir?: string;
  /** Errors that are not Cairn's typed errors (bugs), for the terminal. */
  onInternalError?: (error: unknown) => void;
  /** Requests the guard turned away (foreign Host or Origin, no session, no CSRF token). */
  onRefused?: (refusal: Refusal) => void;
}

export interface DashboardHandle {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The one-time sign-in URL: it sets the session cookie once, then stops working. */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
  /** Resolves once the server has stopped. */
  readonly closed: Promise<void>;
}

function checkOptions(host: string, port: number): void {
  if (!isLoopbackHost(host)) {
    throw new CairnError(
      'INVALID_INPUT',
      `Refusing to serve the dashboard on the non-loopback host ${host}`,
      {
        hint: 'the dashboard serves this machine only: bind 127.0.0.1 (the default), localhost or ::1',
        details: { host },
      },
    );
  }
  assertTcpPort(port);
}

/**
 * Serves the dashboard of one project on a loopback port: the UI and its
 * API over `cairn`, behind the local guard (loopback Host, own Origin), a
 * session cookie won through the one-time URL, and a CSRF token on every
 * write. Resolves once listening; `close()` leaves `cairn` open.
 */
export async function serveDashboard(
  cairn: Cairn,
  options: DashboardOptions = {},
): Promise<DashboardHandle> {
  const { port = 0, host = '127.0.0.1' } = options;
  checkOptions(host, port);
  const state: DashboardState = {
    cairn,
    auth: createDashboardAuth(),
    maintenance: options.maintenance ?? engineMaintenance(cairn),
    assets: loadAssets(options.uiDir ?? defaultUiDir()),
    port: 0,
    onInternal: options.onInternalError ?? (() => undefined),
    onRefused: options.onRefused ?? (() => undefined),
  };
  const server = createServer(dashboardHandler(state));
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const address = await listenOn(server, port, host);
  state.port = address.port;
  state.auth.cookieName = `${SESSION_COOKIE}_${address.port}`;
  const name = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${name}:${address.port}`;
  const closed = new Promise<void>((resolve) => server.once('close', () => resolve()));
  return {
    origin,
    url: `${origin}/auth/${state.auth.launchToken}`,
    port: address.port,
    closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
