/**
 * The playground's run state, apart from React: the chat's turns and what the next request carries,
 * whether a call is under way and until when, what was sent, what came back, and why a run ended
 * without an answer. One reducer (`runReducer`), so each transition is a plain, tested function.
 */
import type { RenderedOutput } from "./output";
import type { ChatMessage } from "./plan";
import type { CapturedRequest } from "./requests";

/** Why a run ended without an answer, as shown next to the Send button. */
export interface RunError {
	kind: "provider" | "network" | "timeout" | "stopped" | "other";
	message: string;
	/** The provider's HTTP status, when it answered with an error. */
	status?: number;
}

export interface ChatTurn {
	id: number;
	user: string;
	answer: string;
	status: "streaming" | "done" | "failed" | "stopped";
	error?: RunError;
}

/**
 * The messages of the next request: the completed turns (question and answer), then `next`. Failed and
 * stopped turns stay on screen (to retry or remove) but are never sent, so a request never carries two
 * user turns in a row.
 */
export function conversation(turns: readonly ChatTurn[], next?: string): ChatMessage[] {
	const messages: ChatMessage[] = [];
	for (const turn of turns) {
		if (turn.status !== "done") continue;
		messages.push({ role: "user", content: turn.user }, { role: "assistant", content: turn.answer });
	}
	if (next !== undefined && next.trim()) messages.push({ role: "user", content: next });
	return messages;
}

/**
 * The turns before `turnId` and its question, to ask it again in its place (the turns after it are
 * dropped with it); undefined unless that turn failed or was stopped (the only ones offering Retry).
 */
export function retryOf(
	turns: readonly ChatTurn[],
	turnId: number,
): { history: ChatTurn[]; question: string } | undefined {
	const index = turns.findIndex((turn) => turn.id === turnId);
	const turn = turns[index];
	if (!turn || (turn.status !== "failed" && turn.status !== "stopped")) return undefined;
	return { history: turns.slice(0, index), question: turn.user };
}

// ---- Run state -------------------------------------------------------------------------------------

/**
 * Where the last call stands: none yet (or its feedback dismissed), under way until `deadline` (ms
 * since the epoch, pushed back by each streamed token), answered, failed, or stopped by the user.
 */
export type RunState =
	| { phase: "idle" }
	| { phase: "running"; deadline: number }
	| { phase: "done" }
	| { phase: "failed"; error: RunError }
	| { phase: "stopped"; error: RunError };

export interface PlaygroundSession {
	turns: ChatTurn[];
	run: RunState;
	/** The request that really left (recorded by the client's fetch), for comparison with the preview. */
	sent: CapturedRequest | undefined;
	output: RenderedOutput | undefined;
}

const IDLE: RunState = { phase: "idle" };

export const INITIAL_SESSION: PlaygroundSession = {
	turns: [],
	run: IDLE,
	sent: undefined,
	output: undefined,
};

export type RunAction =
	/** A call starts; a chat call asks `question` after `history` (the turns after a retried one are dropped). */
	| { type: "start"; deadline: number; chat?: { history: ChatTurn[]; turnId: number; question: string } }
	| { type: "deadline"; deadline: number }
	| { type: "sent"; request: CapturedRequest }
	/** The answer so far of a streaming chat turn. */
	| { type: "token"; turnId: number; answer: string }
	| { type: "answered"; turnId?: number; output?: RenderedOutput }
	| { type: "failed"; turnId?: number; error: RunError }
	| { type: "remove"; turnId: number }
	| { type: "clear" };

function patchTurn(turns: ChatTurn[], id: number, patch: Partial<ChatTurn>): ChatTurn[] {
	return turns.map((turn) => (turn.id === id ? { ...turn, ...patch } : turn));
}

/**
 * The run's transitions: idle/done/failed/stopped → running (start, refused while running) → done
 * (answered) | failed | stopped (an error of kind "stopped"). What only a running call sends (its
 * deadline, tokens, its answer or failure) is ignored once no call runs, so a late event of a call that
 * ended cannot change what the page shows.
 */
export function runReducer(state: PlaygroundSession, action: RunAction): PlaygroundSession {
	const running = state.run.phase === "running";
	switch (action.type) {
		case "start": {
			if (running) return state;
			const { chat } = action;
			return {
				turns: chat
					? [...chat.history, { id: chat.turnId, user: chat.question, answer: "", status: "streaming" }]
					: state.turns,
				run: { phase: "running", deadline: action.deadline },
				sent: undefined,
				output: undefined,
			};
		}
		case "deadline":
			return running ? { ...state, run: { phase: "running", deadline: action.deadline } } : state;
		case "sent":
			return running ? { ...state, sent: action.request } : state;
		case "token":
			return running
				? { ...state, turns: patchTurn(state.turns, action.turnId, { answer: action.answer }) }
				: state;
		case "answered":
			if (!running) return state;
			return {
				...state,
				turns:
					action.turnId === undefined
						? state.turns
						: patchTurn(state.turns, action.turnId, { status: "done" }),
				run: { phase: "done" },
				output: action.output,
			};
		case "failed": {
			if (!running) return state;
			const stopped = action.error.kind === "stopped";
			return {
				...state,
				turns:
					action.turnId === undefined
						? state.turns
						: patchTurn(state.turns, action.turnId, {
								status: stopped ? "stopped" : "failed",
								error: action.error,
							}),
				run: { phase: stopped ? "stopped" : "failed", error: action.error },
			};
		}
		// Removing or clearing turns also dismisses the feedback about the last run (not a call under way).
		case "remove":
			return {
				...state,
				turns: state.turns.filter((turn) => turn.id !== action.turnId),
				run: running ? state.run : IDLE,
			};
		case "clear":
			return { ...state, turns: [], run: running ? state.run : IDLE };
	}
}

// ---- Cancellation ----------------------------------------------------------------------------------

/** Why the page aborted a call: the user pressed Stop, or it went `timeoutMs` without an answer. */
export type CancelReason = "stopped" | "timeout";

/** The clock a `RunControl` arms its timeout on (the browser's by default; a hand-driven one in tests). */
export interface RunClock {
	now(): number;
	setTimeout(callback: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

const SYSTEM_CLOCK: RunClock = {
	now: () => Date.now(),
	setTimeout: (callback, ms) => setTimeout(callback, ms),
	clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** One call under way: its abort signal, its timeout, and why the page aborted it (if it did). */
export interface ActiveCall {
	readonly signal: AbortSignal;
	/** When the call gives up (ms since the epoch), as armed by `begin` or the last `extend`. */
	readonly deadline: number;
	/** Set when the page aborted the call (Stop or the timeout); undefined when it did not. */
	readonly reason: CancelReason | undefined;
	/** Pushes the timeout back (a streamed token arrived); returns the new deadline. */
	extend(): number;
	/** The call ended (answered or failed): its timeout is disarmed and a new call may begin. */
	end(): void;
}

/**
 * At most one call at a time, each with an abort signal and a timeout of `timeoutMs` without an answer;
 * Stop and the timeout abort it and say which did. Plain (no React), so the hook only wires it up.
 */
export class RunControl {
	#current: (ActiveCall & { cancel(reason?: CancelReason): void }) | undefined;

	constructor(
		private readonly timeoutMs: number,
		private readonly clock: RunClock = SYSTEM_CLOCK,
	) {}

	/** Whether a call is under way. */
	get busy(): boolean {
		return this.#current !== undefined;
	}

	/** Starts a call, or answers undefined while another is under way (one call at a time). */
	begin(): ActiveCall | undefined {
		if (this.#current) return undefined;
		const { clock, timeoutMs } = this;
		const controller = new AbortController();
		let reason: CancelReason | undefined;
		let timer: unknown;
		let deadline = 0;
		const cancel = (why?: CancelReason) => {
			if (controller.signal.aborted) return;
			reason = why;
			controller.abort();
		};
		const arm = (): number => {
			clock.clearTimeout(timer);
			timer = clock.setTimeout(() => cancel("timeout"), timeoutMs);
			deadline = clock.now() + timeoutMs;
			return deadline;
		};
		const call = {
			signal: controller.signal,
			get deadline() {
				return deadline;
			},
			get reason() {
				return reason;
			},
			extend: () => (this.#current === call && !controller.signal.aborted ? arm() : deadline),
			end: () => {
				clock.clearTimeout(timer);
				if (this.#current === call) this.#current = undefined;
			},
			cancel,
		};
		arm();
		this.#current = call;
		return call;
	}

	/** Stop: aborts the call under way, if any. */
	stop(): void {
		this.#current?.cancel("stopped");
	}

	/** The page goes away: aborts the call under way without a reason of its own (nothing is shown). */
	dispose(): void {
		this.#current?.cancel();
	}
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/**
 * What the page says about whatever a call threw: `reason` is why the page aborted it (if it did),
 * `status` the provider's HTTP status when the error is its answer, `url` where the request went.
 */
export function describeRunError(
	error: unknown,
	{
		reason,
		status,
		url,
		timeoutMs,
	}: { reason?: CancelReason; status?: number; url?: string; timeoutMs: number },
): RunError {
	if (reason === "timeout") {
		return { kind: "timeout", message: `No answer within ${timeoutMs / 1000} s: the request was cancelled.` };
	}
	if (reason === "stopped")
		return { kind: "stopped", message: "Stopped. Nothing more will arrive for this request." };
	if (status !== undefined) return { kind: "provider", message: messageOf(error), status };
	// A TypeError from fetch itself: nothing came back (the provider is down, or refused this page's origin).
	if (error instanceof TypeError) {
		const host = url ? new URL(url).host : "the provider";
		return {
			kind: "network",
			message: `Could not reach ${host}: ${messageOf(error)}. The provider may be down, or may not accept requests from this page (CORS).`,
		};
	}
	return { kind: "other", message: messageOf(error) };
}
