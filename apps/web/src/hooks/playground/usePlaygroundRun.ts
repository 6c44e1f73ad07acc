import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { callTask, providerErrorStatus, streamChat, type ClientOptions } from "../../inference/adapter";
import { renderOutput, type OutputContext, type RenderedOutput } from "../../view/playground/output";
import type { PlaygroundFunction, PlaygroundPlan } from "../../view/playground/plan";
import { recordingFetch } from "../../view/playground/requests";
import {
	describeRunError,
	INITIAL_SESSION,
	retryOf,
	RunControl,
	runReducer,
	type ChatTurn,
	type PlaygroundSession,
} from "../../view/playground/run";

/** A call that has not answered (or, streaming, not sent a token) for this long is given up. */
export const PLAYGROUND_TIMEOUT_MS = 60_000;

/** Calls `fn` and shows its answer by `fn`'s own view (typed by the client's output for `fn`). */
async function callAndRender<Name extends PlaygroundFunction>(
	fn: Name,
	args: Record<string, unknown>,
	options: ClientOptions,
	context: OutputContext,
): Promise<RenderedOutput> {
	return renderOutput(fn, await callTask(fn, args, options), context);
}

export interface PlaygroundRun extends PlaygroundSession {
	/** Asks `question` after the completed turns of `history` (chat), or runs the form's call. */
	start: (history: ChatTurn[], question: string) => Promise<void>;
	stop: () => void;
	retry: (turnId: number) => void;
	remove: (turnId: number) => void;
	clear: () => void;
}

/**
 * Sending through the client's task functions with a recording fetch (so the page can show what really
 * left), a visible timeout pushed back by each streamed token, Stop, and the chat turns (failed or
 * stopped ones kept to retry or remove). The state itself is `runReducer`'s.
 */
export function usePlaygroundRun({
	plan,
	canRun,
	options,
	hubUrl,
	fileType,
	argsFor,
	context,
	onQuestionSent,
}: {
	plan: PlaygroundPlan;
	/** A token is set: without one nothing is sent. */
	canRun: boolean;
	options: ClientOptions;
	hubUrl: string;
	fileType: string | undefined;
	argsFor: (history: ChatTurn[], question: string) => Record<string, unknown>;
	context: OutputContext;
	onQuestionSent: () => void;
}): PlaygroundRun {
	const [session, dispatch] = useReducer(runReducer, INITIAL_SESSION);
	// One control for the page's life: the call under way, its abort signal and its timeout.
	const [control] = useState(() => new RunControl(PLAYGROUND_TIMEOUT_MS));
	const nextTurnId = useRef(1);

	// Leaving the page cancels a call under way.
	useEffect(() => () => control.dispose(), [control]);

	const start = useCallback(
		async (history: ChatTurn[], question: string) => {
			if (!canRun || !plan.fn) return;
			const call = control.begin();
			if (!call) return;
			const turnId = nextTurnId.current++;
			const chat = plan.kind === "chat" ? { history, turnId, question } : undefined;
			dispatch({ type: "start", deadline: call.deadline, ...(chat ? { chat } : {}) });
			if (chat) onQuestionSent();
			let sentUrl: string | undefined;
			const callOptions: ClientOptions = {
				...options,
				fetch: recordingFetch(
					hubUrl,
					window.fetch.bind(window),
					(request) => {
						sentUrl = request.url;
						dispatch({ type: "sent", request });
					},
					fileType,
				),
				signal: call.signal,
			};
			const args = argsFor(history, question);
			try {
				if (plan.kind === "chat") {
					let answer = "";
					for await (const token of streamChat(args, callOptions)) {
						answer += token;
						dispatch({ type: "token", turnId, answer });
						dispatch({ type: "deadline", deadline: call.extend() });
					}
					dispatch({ type: "answered", turnId });
				} else {
					dispatch({ type: "answered", output: await callAndRender(plan.fn, args, callOptions, context) });
				}
			} catch (error) {
				const details = describeRunError(error, {
					reason: call.reason,
					status: await providerErrorStatus(error),
					url: sentUrl,
					timeoutMs: PLAYGROUND_TIMEOUT_MS,
				});
				dispatch({ type: "failed", error: details, ...(chat ? { turnId } : {}) });
			} finally {
				call.end();
			}
		},
		[canRun, plan, control, onQuestionSent, options, hubUrl, fileType, argsFor, context],
	);

	const stop = useCallback(() => control.stop(), [control]);

	const { turns } = session;
	const retry = useCallback(
		(turnId: number) => {
			const again = retryOf(turns, turnId);
			if (again) void start(again.history, again.question);
		},
		[turns, start],
	);
	const remove = useCallback((turnId: number) => dispatch({ type: "remove", turnId }), []);
	const clear = useCallback(() => dispatch({ type: "clear" }), []);

	return { ...session, start, stop, retry, remove, clear };
}
