/**
 * The playground's behaviour, apart from how it looks: the form state, the request preview
 * (useRequestPreview), the run (usePlaygroundRun) and the demo file that fills a file form from the
 * start (useDemoFile). The logic they apply is in plain modules under view/playground/.
 */
import { useCallback, useMemo, useState } from "react";
import type { ModelDetail } from "../../api/models";
import type { ClientOptions } from "../../inference/adapter";
import { normalizeBaseUrl, useSettings } from "../../settings/store";
import { toModelData } from "../../view/model";
import type { OutputContext } from "../../view/playground/output";
import {
	buildArgs,
	initialInput,
	playgroundPlan,
	type PlaygroundInput,
	type PlaygroundPlan,
} from "../../view/playground/plan";
import { conversation, type ChatTurn } from "../../view/playground/run";
import type { ProviderEntry } from "../../view/providers";
import { useDemoFile } from "./useDemoFile";
import { usePlaygroundRun, type PlaygroundRun } from "./usePlaygroundRun";
import { useRequestPreview, type Preview } from "./useRequestPreview";

export { PLAYGROUND_TIMEOUT_MS } from "./usePlaygroundRun";
export type { Preview } from "./useRequestPreview";

export interface PlaygroundState extends Omit<PlaygroundRun, "start"> {
	plan: PlaygroundPlan;
	input: PlaygroundInput;
	setInput: (input: PlaygroundInput) => void;
	draft: string;
	setDraft: (text: string) => void;
	/** The file sent (picked, or the task's demo file) and its name. */
	file: { blob: Blob; name: string } | undefined;
	setFile: (blob: Blob | undefined, name?: string) => void;
	preview: Preview;
	canSend: boolean;
	send: () => void;
}

export function usePlayground(model: ModelDetail, entry: ProviderEntry | undefined): PlaygroundState {
	const settings = useSettings();
	const modelData = useMemo(() => toModelData(model), [model]);
	const plan = useMemo(() => playgroundPlan(modelData), [modelData]);
	const [input, setInput] = useState<PlaygroundInput>(() => initialInput(modelData));
	const [draft, setDraft] = useState(() => input.messages[0]?.content ?? "");
	const [file, setFileState] = useState<{ blob: Blob; name: string } | undefined>(undefined);
	const setFile = useCallback(
		(blob: Blob | undefined, name?: string) =>
			setFileState(blob ? { blob, name: name ?? (blob instanceof File ? blob.name : "") } : undefined),
		[],
	);

	const hubUrl = normalizeBaseUrl(settings.hubUrl) || window.location.origin;
	const routerUrl = normalizeBaseUrl(settings.routerUrl) || undefined;
	const fileKind = plan.kind === "image" || plan.kind === "audio" ? plan.kind : undefined;
	const blob = file?.blob;
	const fileType = blob?.type || undefined;

	useDemoFile(plan.task, fileKind, normalizeBaseUrl(settings.hubUrl), setFile);

	const options = useMemo(
		(): ClientOptions => ({
			hubUrl,
			...(routerUrl ? { routerUrl } : {}),
			...(settings.billTo ? { billTo: settings.billTo } : {}),
		}),
		[hubUrl, routerUrl, settings.billTo],
	);

	const argsFor = useCallback(
		(history: ChatTurn[], next: string) => {
			const effective: PlaygroundInput =
				plan.kind === "chat" ? { ...input, messages: conversation(history, next) } : input;
			return {
				...buildArgs(plan, effective, blob),
				model: model.id,
				provider: entry?.provider,
				...(settings.token ? { accessToken: settings.token } : {}),
			};
		},
		[plan, input, blob, model.id, entry?.provider, settings.token],
	);
	const context = useMemo(
		(): OutputContext => ({ text: input.text, sentences: input.sentences.filter(Boolean), file: blob }),
		[input.text, input.sentences, blob],
	);
	const clearDraft = useCallback(() => setDraft(""), []);
	const run = usePlaygroundRun({
		plan,
		canRun: Boolean(settings.token),
		options,
		hubUrl,
		fileType,
		argsFor,
		context,
		onQuestionSent: clearDraft,
	});

	const previewArgs = useMemo(() => argsFor(run.turns, draft), [argsFor, run.turns, draft]);
	const previewOptions = useMemo(
		() => ({ ...options, inferenceProviderMapping: model.inferenceProviderMapping }),
		[options, model.inferenceProviderMapping],
	);
	const preview = useRequestPreview({
		plan,
		ready: Boolean(entry) && (!fileKind || Boolean(blob)),
		args: previewArgs,
		options: previewOptions,
		fileType,
	});

	const canSend =
		Boolean(settings.token) &&
		run.run.phase !== "running" &&
		preview.status === "ready" &&
		(plan.kind !== "chat" || draft.trim() !== "");
	const { start, turns, ...rest } = run;
	const send = useCallback(() => void start(turns, draft), [start, turns, draft]);

	return { plan, input, setInput, draft, setDraft, file, setFile, preview, canSend, send, turns, ...rest };
}
