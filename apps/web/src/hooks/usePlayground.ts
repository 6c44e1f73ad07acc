/**
 * The playground's behaviour, apart from how it looks: the form state, the request preview from the
 * client's public dry run (`prepareRequest`), sending through the client's task functions with a
 * recording fetch (so the page can show what really left), a visible timeout, Stop, and the chat turns
 * (failed or stopped ones kept to retry or remove, never sent again on their own).
 */
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { ModelDetail } from "../api/models";
import {
	callTask,
	prepareCall,
	providerErrorStatus,
	streamChat,
	type ClientOptions,
	type TaskFunctionName,
} from "../inference/adapter";
import { normalizeBaseUrl, useSettings } from "../settings/store";
import { toModelData } from "../view/model";
import {
	buildArgs,
	conversation,
	describePrepared,
	initialInput,
	playgroundPlan,
	recordingFetch,
	renderOutput,
	type CapturedRequest,
	type ChatTurn,
	type PlaygroundInput,
	type PlaygroundPlan,
	type RenderedOutput,
	type RunError,
} from "../view/playground";
import type { ProviderEntry } from "../view/providers";

/** A call that has not answered (or, streaming, not sent a token) for this long is given up. */
export const PLAYGROUND_TIMEOUT_MS = 60_000;

export type Preview =
	| { status: "idle" | "loading" }
	| { status: "ready"; request: CapturedRequest }
	| { status: "error"; message: string };

export interface RunState {
	running: boolean;
	/** When the current call gives up (ms since the epoch), pushed back by each streamed token. */
	deadline?: number;
	/** Why the last run ended without an answer (non-chat tasks; chat turns carry their own). */
	error?: RunError;
	/** Feedback after Stop. */
	stopped?: boolean;
}

export interface PlaygroundState {
	plan: PlaygroundPlan;
	input: PlaygroundInput;
	setInput: (input: PlaygroundInput) => void;
	draft: string;
	setDraft: (text: string) => void;
	file: Blob | undefined;
	setFile: (file: Blob | undefined) => void;
	turns: ChatTurn[];
	preview: Preview;
	sent: CapturedRequest | undefined;
	run: RunState;
	output: { output: RenderedOutput; raw: unknown } | undefined;
	canSend: boolean;
	send: () => void;
	stop: () => void;
	retry: (turnId: number) => void;
	remove: (turnId: number) => void;
	clear: () => void;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Turns whatever a call threw into what the page says about it. */
async function runError(
	error: unknown,
	reason: "timeout" | "stopped" | undefined,
	url: string | undefined,
): Promise<RunError> {
	if (reason === "timeout") {
		return {
			kind: "timeout",
			message: `No answer within ${PLAYGROUND_TIMEOUT_MS / 1000} s: the request was cancelled.`,
		};
	}
	if (reason === "stopped")
		return { kind: "stopped", message: "Stopped. Nothing more will arrive for this request." };
	const status = await providerErrorStatus(error);
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

export function usePlayground(model: ModelDetail, entry: ProviderEntry | undefined): PlaygroundState {
	const settings = useSettings();
	const modelData = useMemo(() => toModelData(model), [model]);
	const plan = useMemo(() => playgroundPlan(modelData), [modelData]);
	const [input, setInput] = useState<PlaygroundInput>(() => initialInput(modelData));
	const [draft, setDraft] = useState(() => input.messages[0]?.content ?? "");
	const [turns, setTurns] = useState<ChatTurn[]>([]);
	const [file, setFile] = useState<Blob | undefined>(undefined);
	const [preview, setPreview] = useState<Preview>({ status: "idle" });
	const [sent, setSent] = useState<CapturedRequest | undefined>(undefined);
	const [run, setRun] = useState<RunState>({ running: false });
	const [output, setOutput] = useState<PlaygroundState["output"]>(undefined);
	const active = useRef<{
		controller: AbortController;
		reason?: "timeout" | "stopped";
		timer?: ReturnType<typeof setTimeout>;
	}>(undefined);
	const nextTurnId = useRef(1);

	const hubUrl = normalizeBaseUrl(settings.hubUrl) || window.location.origin;
	const routerUrl = normalizeBaseUrl(settings.routerUrl) || undefined;
	const fileKind = plan.kind === "image" || plan.kind === "audio";
	const fileType = file?.type || undefined;

	const clientOptions = useCallback(
		(extra: Partial<ClientOptions>): ClientOptions => ({
			hubUrl,
			...(routerUrl ? { routerUrl } : {}),
			...(settings.billTo ? { billTo: settings.billTo } : {}),
			...extra,
		}),
		[hubUrl, routerUrl, settings.billTo],
	);

	const argsFor = useCallback(
		(messagesFrom: ChatTurn[], next: string) => {
			const effective: PlaygroundInput =
				plan.kind === "chat" ? { ...input, messages: conversation(messagesFrom, next) } : input;
			return {
				...buildArgs(plan, effective, file),
				model: model.id,
				provider: entry?.provider,
				...(settings.token ? { accessToken: settings.token } : {}),
			};
		},
		[plan, input, file, model.id, entry?.provider, settings.token],
	);

	// The preview: the client's dry run of the call the Send button would make.
	const previewArgs = useMemo(() => argsFor(turns, draft), [argsFor, turns, draft]);
	useEffect(() => {
		if (!plan.fn || !entry) return;
		if (fileKind && !file) {
			setPreview({ status: "idle" });
			return;
		}
		let cancelled = false;
		const timer = setTimeout(() => {
			setPreview({ status: "loading" });
			prepareCall(plan.fn as TaskFunctionName, previewArgs, {
				...clientOptions({}),
				inferenceProviderMapping: model.inferenceProviderMapping,
			})
				.then((prepared) => describePrepared(prepared, fileType))
				.then(
					(request) => {
						if (!cancelled) setPreview({ status: "ready", request });
					},
					(error: unknown) => {
						if (!cancelled) setPreview({ status: "error", message: messageOf(error) });
					},
				);
		}, 150);
		return () => {
			cancelled = true;
			clearTimeout(timer);
		};
	}, [plan, entry, previewArgs, file, fileKind, fileType, clientOptions, model.inferenceProviderMapping]);

	// Leaving the page cancels a call under way.
	useEffect(() => () => active.current?.controller.abort(), []);

	const armTimeout = useCallback(() => {
		const current = active.current;
		if (!current) return;
		clearTimeout(current.timer);
		current.timer = setTimeout(() => {
			current.reason = "timeout";
			current.controller.abort();
		}, PLAYGROUND_TIMEOUT_MS);
		setRun((state) => ({ ...state, deadline: Date.now() + PLAYGROUND_TIMEOUT_MS }));
	}, []);

	const start = useCallback(
		async (history: ChatTurn[], question: string) => {
			if (!settings.token || active.current) return;
			const controller = new AbortController();
			active.current = { controller };
			setRun({ running: true });
			armTimeout();
			setSent(undefined);
			setOutput(undefined);
			let sentUrl: string | undefined;
			const options = clientOptions({
				fetch: recordingFetch(
					hubUrl,
					window.fetch.bind(window),
					(request) => {
						sentUrl = request.url;
						setSent(request);
					},
					fileType,
				),
				signal: controller.signal,
			});
			const args = argsFor(history, question);
			const turnId = nextTurnId.current++;
			const finish = (patch: Partial<ChatTurn>) =>
				setTurns((list) => list.map((turn) => (turn.id === turnId ? { ...turn, ...patch } : turn)));
			if (plan.kind === "chat") {
				setTurns([...history, { id: turnId, user: question, answer: "", status: "streaming" }]);
				setDraft("");
			}
			try {
				if (plan.kind === "chat") {
					let answer = "";
					for await (const token of streamChat(args, options)) {
						answer += token;
						finish({ answer });
						armTimeout();
					}
					finish({ status: "done" });
				} else {
					const raw = await callTask(plan.fn as TaskFunctionName, args, options);
					setOutput({ output: renderOutput(plan.task, raw), raw });
				}
				setRun({ running: false });
			} catch (error) {
				const reason = active.current?.reason;
				const details = await runError(error, reason, sentUrl);
				if (plan.kind === "chat")
					finish({ status: reason === "stopped" ? "stopped" : "failed", error: details });
				setRun({ running: false, error: details, ...(reason === "stopped" ? { stopped: true } : {}) });
			} finally {
				clearTimeout(active.current?.timer);
				active.current = undefined;
			}
		},
		[settings.token, armTimeout, clientOptions, hubUrl, fileType, argsFor, plan],
	);

	const send = useCallback(() => {
		void start(turns, draft);
	}, [start, turns, draft]);

	const stop = useCallback(() => {
		const current = active.current;
		if (!current) return;
		current.reason = "stopped";
		current.controller.abort();
	}, []);

	const retry = useCallback(
		(turnId: number) => {
			const index = turns.findIndex((turn) => turn.id === turnId);
			const turn = turns[index];
			if (!turn) return;
			// The turn is asked again in its place: the turns after it are dropped with it.
			void start(turns.slice(0, index), turn.user);
		},
		[turns, start],
	);

	const remove = useCallback((turnId: number) => {
		setTurns((list) => list.filter((turn) => turn.id !== turnId));
		setRun((state) => ({ running: state.running }));
	}, []);

	const clear = useCallback(() => {
		setTurns([]);
		setRun((state) => ({ running: state.running }));
	}, []);

	const canSend =
		Boolean(settings.token) &&
		!run.running &&
		preview.status === "ready" &&
		(plan.kind !== "chat" || draft.trim() !== "");

	return {
		plan,
		input,
		setInput,
		draft,
		setDraft,
		file,
		setFile,
		turns,
		preview,
		sent,
		run,
		output,
		canSend,
		send,
		stop,
		retry,
		remove,
		clear,
	};
}
