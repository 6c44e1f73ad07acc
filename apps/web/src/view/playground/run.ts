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

// ---- Run state -------------------------------------------------------------------------------------

interface RunState {
	running: boolean;
	/** When the current call gives up (ms since the epoch), pushed back by each streamed token. */
	deadline?: number;
	/** Why the last run ended without an answer (non-chat tasks; chat turns carry their own). */
	error?: RunError;
	/** Feedback after Stop. */
	stopped?: boolean;
}

export interface PlaygroundSession {
	turns: ChatTurn[];
	run: RunState;
	/** The request that really left (recorded by the client's fetch), for comparison with the preview. */
	sent: CapturedRequest | undefined;
	output: RenderedOutput | undefined;
}

export const INITIAL_SESSION: PlaygroundSession = {
	turns: [],
	run: { running: false },
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

export function runReducer(state: PlaygroundSession, action: RunAction): PlaygroundSession {
	switch (action.type) {
		case "start": {
			const { chat } = action;
			return {
				turns: chat
					? [...chat.history, { id: chat.turnId, user: chat.question, answer: "", status: "streaming" }]
					: state.turns,
				run: { running: true, deadline: action.deadline },
				sent: undefined,
				output: undefined,
			};
		}
		case "deadline":
			return state.run.running ? { ...state, run: { ...state.run, deadline: action.deadline } } : state;
		case "sent":
			return { ...state, sent: action.request };
		case "token":
			return { ...state, turns: patchTurn(state.turns, action.turnId, { answer: action.answer }) };
		case "answered":
			return {
				...state,
				turns:
					action.turnId === undefined
						? state.turns
						: patchTurn(state.turns, action.turnId, { status: "done" }),
				run: { running: false },
				output: action.output,
			};
		case "failed": {
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
				run: { running: false, error: action.error, ...(stopped ? { stopped: true } : {}) },
			};
		}
		// Removing or clearing turns also clears the feedback about the last run.
		case "remove":
			return {
				...state,
				turns: state.turns.filter((turn) => turn.id !== action.turnId),
				run: { running: state.run.running },
			};
		case "clear":
			return { ...state, turns: [], run: { running: state.run.running } };
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
	}: { reason?: "timeout" | "stopped"; status?: number; url?: string; timeoutMs: number },
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
