import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/** How the server's connections are closed when it stops. */
export interface ShutdownSettings {
	/** In-flight requests may finish within this long; then the connections still open are cut. */
	graceMs: number;
	/**
	 * A connection serving no request is closed once it has been quiet this long after the stop began
	 * (or after its last answer): bytes of a request a client already sent are parsed well within it.
	 */
	idleCloseMs: number;
}

export const DEFAULT_SHUTDOWN_SETTINGS: ShutdownSettings = { graceMs: 10_000, idleCloseMs: 250 };

/** How often connections are looked at while the server stops. */
const SWEEP_MS = 25;
/** Event-loop turns spent accepting connections already queued by the kernel when the stop began. */
const MAX_ACCEPT_TURNS = 100;

interface ConnectionState {
	/** Requests received on it and not yet answered to the end. */
	requests: number;
	/** When it last had no request in flight (accepted, or its last answer finished). */
	idleSince: number;
}

/** What a stop did. */
export interface StopReport {
	/** Requests still unanswered when the grace ran out (their connections were cut). */
	cut: number;
}

/**
 * Tracks an HTTP server's connections and the requests in flight on each, to stop it without resetting
 * any request already received: the connections the kernel has queued are accepted first, the listener
 * is closed, every request received (also one that arrives on an open connection during the stop) is
 * answered with `Connection: close`, and connections serving nothing are closed once quiet.
 *
 * Node's own `server.close()` calls `closeIdleConnections()`, which destroys every connection whose
 * request has not been parsed yet — a connection just accepted whose request is still in the socket
 * buffer included (observed: 60 concurrent requests, SIGTERM, up to all 60 reset). That method is
 * replaced by the quiet-period rule while the server stops.
 */
export class ConnectionTracker {
	private readonly connections = new Map<Socket, ConnectionState>();
	private stopping = false;
	private sweep: ReturnType<typeof setInterval> | undefined;
	private acceptedSince = 0;

	constructor(
		private readonly server: Server,
		private readonly settings: ShutdownSettings = DEFAULT_SHUTDOWN_SETTINGS,
	) {
		server.on("connection", (socket: Socket) => {
			this.acceptedSince += 1;
			this.connections.set(socket, { requests: 0, idleSince: Date.now() });
			socket.once("close", () => this.connections.delete(socket));
		});
		server.on("request", (request: IncomingMessage, response: ServerResponse) => {
			const state = this.connections.get(request.socket);
			if (!state) return;
			state.requests += 1;
			response.once("close", () => {
				state.requests -= 1;
				if (state.requests > 0) return;
				state.idleSince = Date.now();
				// While stopping, every answer says Connection: close; end the connection once it is sent.
				if (this.stopping) request.socket.destroySoon();
			});
		});
		server.closeIdleConnections = () => {
			if (this.stopping) this.closeQuiet();
		};
	}

	get graceMs(): number {
		return this.settings.graceMs;
	}

	/** Whether the server is stopping (answers then end their connection). */
	get isStopping(): boolean {
		return this.stopping;
	}

	/** Requests received and not yet answered to the end. */
	get requestsInFlight(): number {
		let total = 0;
		for (const state of this.connections.values()) total += state.requests;
		return total;
	}

	/**
	 * Begins the stop: accepts the connections already waiting in the kernel's queue (closing the
	 * listener would reset them, though their clients have sent their requests), then starts closing
	 * quiet connections. The caller closes the listener afterwards.
	 */
	async beginStop(): Promise<void> {
		if (this.stopping) return;
		this.stopping = true;
		const now = Date.now();
		for (const state of this.connections.values()) state.idleSince = Math.max(state.idleSince, now);
		// An event-loop turn polls the listening socket and accepts all it has queued (libuv accepts until
		// EAGAIN). The first immediate runs in the turn that delivered the signal, before any new poll, so
		// at least one more turn is waited; turns go on while connections keep arriving, bounded.
		for (let turn = 0; turn < MAX_ACCEPT_TURNS; turn++) {
			this.acceptedSince = 0;
			await new Promise<void>((resolve) => setImmediate(resolve));
			if (turn > 0 && this.acceptedSince === 0) break;
		}
		this.sweep = setInterval(() => this.closeQuiet(), SWEEP_MS);
		this.sweep.unref();
	}

	/** Closes the connections serving no request that have been quiet for the idle period. */
	private closeQuiet(): void {
		const quietSince = Date.now() - this.settings.idleCloseMs;
		for (const [socket, state] of this.connections) {
			if (state.requests <= 0 && state.idleSince <= quietSince) socket.destroy();
		}
	}

	/** Cuts every connection still open (the grace ran out); returns the requests that were unanswered. */
	cutAll(): StopReport {
		const cut = this.requestsInFlight;
		this.lastCut += cut;
		for (const socket of this.connections.keys()) socket.destroy();
		return { cut };
	}

	/** Requests the grace cut off (0 after a clean stop). */
	lastCut = 0;

	/** Stops the sweep (the server is closed). */
	finish(): void {
		if (this.sweep) clearInterval(this.sweep);
		this.sweep = undefined;
	}
}
