import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { demoAssetUrl } from "../../api/catalogue";
import type { ModelDetail } from "../../api/models";
import { callTask, streamChat, type ClientOptions, type TaskFunctionName } from "../../inference/adapter";
import { normalizeBaseUrl, updateSettings, useSettings } from "../../settings/store";
import { toModelData } from "../../view/model";
import {
	buildArgs,
	capturingFetch,
	formatRequest,
	initialInput,
	playgroundPlan,
	recordingFetch,
	RequestCaptured,
	renderOutput,
	similarityBars,
	type CapturedRequest,
	type ChatMessage,
	type PlaygroundInput,
	type PlaygroundPlan,
	type RenderedOutput,
} from "../../view/playground";
import type { ProviderEntry } from "../../view/providers";
import { Bars, TokenText } from "../Demo";
import { Notice } from "../Status";
import { ProviderPicker } from "./ProviderPicker";

interface Props {
	model: ModelDetail;
	providers: ProviderEntry[];
	provider: string | undefined;
	onProviderChange: (provider: string) => void;
}

type Preview =
	| { status: "idle" | "loading" }
	| { status: "ready"; request: CapturedRequest }
	| { status: "error"; message: string };

function errorMessage(error: unknown): string {
	if (error instanceof Error) return error.message;
	return String(error);
}

export default function Playground({ model, providers, provider, onProviderChange }: Props) {
	const settings = useSettings();
	const modelData = useMemo(() => toModelData(model), [model]);
	const plan = useMemo(() => playgroundPlan(modelData), [modelData]);
	const [input, setInput] = useState<PlaygroundInput>(() => initialInput(modelData));
	const [draft, setDraft] = useState(() => input.messages[0]?.content ?? "");
	const [history, setHistory] = useState<ChatMessage[]>([]);
	const [file, setFile] = useState<Blob | undefined>(undefined);
	const [fileName, setFileName] = useState<string | undefined>(undefined);
	const [preview, setPreview] = useState<Preview>({ status: "idle" });
	const [sent, setSent] = useState<CapturedRequest | undefined>(undefined);
	const [running, setRunning] = useState(false);
	const [result, setResult] = useState<{ output?: RenderedOutput; error?: string; raw?: unknown }>({});
	const [streamed, setStreamed] = useState<string | undefined>(undefined);
	const abortRef = useRef<AbortController | undefined>(undefined);
	const ids = {
		text: useId(),
		context: useId(),
		labels: useId(),
		file: useId(),
		token: useId(),
		max: useId(),
	};

	const hubUrl = normalizeBaseUrl(settings.hubUrl) || window.location.origin;
	const routerUrl = normalizeBaseUrl(settings.routerUrl) || undefined;
	const fileKind = plan.kind === "image" || plan.kind === "audio" ? plan.kind : undefined;
	const entry = providers.find((candidate) => candidate.provider === provider);

	// The demo picture or clip of the task is the default file, so the form is filled from the start.
	useEffect(() => {
		if (!fileKind) return;
		const controller = new AbortController();
		// The task catalogue is loaded only here, for the tasks that take a file.
		import("../../view/demo-files")
			.then(async ({ demoFile }) => {
				const filename = demoFile(plan.task, fileKind);
				if (!filename) return;
				const response = await fetch(demoAssetUrl(filename, normalizeBaseUrl(settings.hubUrl)), {
					signal: controller.signal,
				});
				const blob = response.ok ? await response.blob() : undefined;
				if (blob && !controller.signal.aborted) {
					setFile(blob);
					setFileName(filename);
				}
			})
			.catch(() => undefined);
		return () => controller.abort();
	}, [fileKind, plan.task, settings.hubUrl]);

	const chatMessages = useMemo<ChatMessage[]>(
		() => (draft.trim() ? [...history, { role: "user", content: draft }] : history),
		[history, draft],
	);
	const args = useMemo(() => {
		const effective: PlaygroundInput = plan.kind === "chat" ? { ...input, messages: chatMessages } : input;
		return buildArgs(plan, effective, file);
	}, [plan, input, chatMessages, file]);

	const callArgs = useMemo(
		() => ({
			...args,
			model: model.id,
			provider: entry?.provider,
			...(settings.token ? { accessToken: settings.token } : {}),
		}),
		[args, model.id, entry?.provider, settings.token],
	);

	// The request preview: run the call with a fetch that stops at the provider request and shows it.
	useEffect(() => {
		if (!plan.fn || !entry) return;
		if (fileKind && !file) {
			setPreview({ status: "idle" });
			return;
		}
		const controller = new AbortController();
		const timer = setTimeout(() => {
			setPreview({ status: "loading" });
			const options: ClientOptions = {
				fetch: capturingFetch(hubUrl, window.fetch.bind(window)),
				signal: controller.signal,
				hubUrl,
				...(routerUrl ? { routerUrl } : {}),
				...(settings.billTo ? { billTo: settings.billTo } : {}),
			};
			const run = async () => {
				if (plan.kind === "chat") {
					for await (const _ of streamChat(callArgs, options)) break;
				} else {
					await callTask(plan.fn as TaskFunctionName, callArgs, options);
				}
			};
			run().then(
				() => setPreview({ status: "error", message: "The client finished without sending a request." }),
				(error: unknown) => {
					if (controller.signal.aborted) return;
					if (error instanceof RequestCaptured) setPreview({ status: "ready", request: error.request });
					else setPreview({ status: "error", message: errorMessage(error) });
				},
			);
		}, 250);
		return () => {
			clearTimeout(timer);
			controller.abort();
		};
	}, [plan, entry, callArgs, file, fileKind, hubUrl, routerUrl, settings.billTo]);

	useEffect(() => () => abortRef.current?.abort(), []);

	if (plan.kind === "unsupported") {
		return (
			<p className="muted">
				The playground does not cover{" "}
				{model.pipeline_tag ? <code>{model.pipeline_tag}</code> : "models without a task"} yet. The snippets
				above show how to call it.
			</p>
		);
	}
	if (providers.length === 0 || !entry) {
		return <p className="muted">No inference provider serves this model, so it cannot run here.</p>;
	}

	const send = async (event: FormEvent) => {
		event.preventDefault();
		if (!settings.token || running) return;
		const controller = new AbortController();
		abortRef.current = controller;
		setRunning(true);
		setSent(undefined);
		setResult({});
		const options: ClientOptions = {
			fetch: recordingFetch(hubUrl, window.fetch.bind(window), setSent),
			signal: controller.signal,
			hubUrl,
			...(routerUrl ? { routerUrl } : {}),
			...(settings.billTo ? { billTo: settings.billTo } : {}),
		};
		try {
			if (plan.kind === "chat") {
				const asked = chatMessages;
				setHistory(asked);
				setDraft("");
				let answer = "";
				setStreamed("");
				for await (const token of streamChat(callArgs, options)) {
					answer += token;
					setStreamed(answer);
				}
				setHistory([...asked, { role: "assistant", content: answer }]);
				setStreamed(undefined);
			} else {
				const output = await callTask(plan.fn as TaskFunctionName, callArgs, options);
				setResult({ output: renderOutput(plan.task, output), raw: output });
			}
		} catch (error) {
			setStreamed(undefined);
			if (!controller.signal.aborted) setResult({ error: errorMessage(error) });
		} finally {
			setRunning(false);
		}
	};

	const previewText = preview.status === "ready" ? formatRequest(preview.request) : undefined;
	const sentText = sent ? formatRequest(sent) : undefined;

	return (
		<div className="playground" data-kind={plan.kind}>
			{providers.length > 1 ? (
				<ProviderPicker
					name="playground-provider"
					legend="Run with"
					providers={providers}
					value={provider}
					onChange={onProviderChange}
				/>
			) : (
				<p>
					Runs on <strong>{entry.label}</strong>.
				</p>
			)}
			<form className="playground-form" onSubmit={send} aria-label="Playground">
				{plan.kind === "chat" ? <ChatLog history={history} streamed={streamed} /> : null}
				<InputFields
					plan={plan}
					input={input}
					setInput={setInput}
					draft={draft}
					setDraft={setDraft}
					ids={ids}
					fileName={fileName}
					onFile={(picked) => {
						setFile(picked);
						setFileName(picked?.name);
					}}
				/>
				{!settings.token ? (
					<div className="field">
						<label htmlFor={ids.token}>Access token</label>
						<input
							id={ids.token}
							type="password"
							className="input"
							autoComplete="off"
							placeholder="hf_… or a provider key"
							onChange={(event) => updateSettings({ token: event.target.value.trim() })}
						/>
						<span className="muted small">
							Kept in memory only (see <Link to="/settings">Settings</Link>); sent only to the provider or
							router.
						</span>
					</div>
				) : null}
				<div className="playground-actions">
					<button
						type="submit"
						className="btn btn-primary"
						disabled={
							!settings.token ||
							running ||
							preview.status !== "ready" ||
							(plan.kind === "chat" && !draft.trim())
						}
					>
						{running ? "Running…" : "Send request"}
					</button>
					{running ? (
						<button type="button" className="btn btn-secondary" onClick={() => abortRef.current?.abort()}>
							Stop
						</button>
					) : null}
					{!settings.token ? <span className="muted small">Add a token to send the request.</span> : null}
				</div>
			</form>

			<div className="request-preview">
				<h3 className="demo-heading">Request that will be sent</h3>
				{preview.status === "loading" || preview.status === "idle" ? (
					<p className="muted">Preparing the request…</p>
				) : null}
				{preview.status === "error" ? <Notice tone="warning">{preview.message}</Notice> : null}
				{previewText ? (
					<pre
						className="request-text"
						tabIndex={0}
						aria-label="Request preview"
						data-testid="request-preview"
					>
						{previewText}
					</pre>
				) : null}
			</div>

			{sentText ? (
				<details className="sent-request">
					<summary>
						Request sent {sentText === previewText || !previewText ? "" : "(differs from the preview)"}
					</summary>
					<pre className="request-text" tabIndex={0} aria-label="Sent request" data-testid="request-sent">
						{sentText}
					</pre>
				</details>
			) : null}

			{result.error ? (
				<div className="notice notice-error" role="alert">
					{result.error}
				</div>
			) : null}
			{result.output ? (
				<div className="playground-output" aria-live="polite">
					<h3 className="demo-heading">Output</h3>
					<OutputView output={result.output} raw={result.raw} plan={plan} input={input} file={file} />
				</div>
			) : null}
		</div>
	);
}

function ChatLog({ history, streamed }: { history: ChatMessage[]; streamed: string | undefined }) {
	if (history.length === 0 && streamed === undefined) return null;
	return (
		<ol className="chat-log" aria-label="Conversation" aria-live="polite">
			{history.map((message, index) => (
				<li key={index} className={`chat-message chat-${message.role}`}>
					<span className="chat-role">{message.role === "user" ? "You" : "Model"}</span>
					<p>{message.content}</p>
				</li>
			))}
			{streamed !== undefined ? (
				<li className="chat-message chat-assistant" data-streaming="true">
					<span className="chat-role">Model</span>
					<p data-testid="chat-streaming">
						{streamed}
						<span className="cursor" aria-hidden="true" />
					</p>
				</li>
			) : null}
		</ol>
	);
}

function InputFields({
	plan,
	input,
	setInput,
	draft,
	setDraft,
	ids,
	fileName,
	onFile,
}: {
	plan: PlaygroundPlan;
	input: PlaygroundInput;
	setInput: (input: PlaygroundInput) => void;
	draft: string;
	setDraft: (text: string) => void;
	ids: Record<"text" | "context" | "labels" | "file" | "max", string>;
	fileName: string | undefined;
	onFile: (file: File | undefined) => void;
}) {
	switch (plan.kind) {
		case "chat":
			return (
				<>
					<div className="field">
						<label htmlFor={ids.text}>Message</label>
						<textarea
							id={ids.text}
							className="input"
							rows={3}
							value={draft}
							onChange={(event) => setDraft(event.target.value)}
						/>
					</div>
					<div className="field field-inline">
						<label htmlFor={ids.max}>Max tokens</label>
						<input
							id={ids.max}
							type="number"
							min={1}
							max={8192}
							className="input input-narrow"
							value={input.maxTokens}
							onChange={(event) =>
								setInput({ ...input, maxTokens: Math.max(1, Number(event.target.value) || 1) })
							}
						/>
					</div>
				</>
			);
		case "image":
		case "audio":
			return (
				<>
					<div className="field">
						<label htmlFor={ids.file}>{plan.kind === "image" ? "Image" : "Audio"} file</label>
						<input
							id={ids.file}
							type="file"
							className="input"
							accept={plan.kind === "image" ? "image/*" : "audio/*"}
							onChange={(event) => onFile(event.target.files?.[0])}
						/>
						<span className="muted small">{fileName ? `Using ${fileName}` : "No file yet"}</span>
					</div>
					{plan.task === "zero-shot-image-classification" ? (
						<LabelsField id={ids.labels} input={input} setInput={setInput} />
					) : null}
				</>
			);
		default:
			return (
				<>
					<div className="field">
						<label htmlFor={ids.text}>
							{plan.kind === "question-answering"
								? "Question"
								: plan.kind === "sentence-similarity"
									? "Source sentence"
									: "Input"}
						</label>
						<textarea
							id={ids.text}
							className="input"
							rows={plan.kind === "text" ? 4 : 2}
							value={input.text}
							onChange={(event) => setInput({ ...input, text: event.target.value })}
						/>
					</div>
					{plan.kind === "question-answering" ? (
						<div className="field">
							<label htmlFor={ids.context}>Context</label>
							<textarea
								id={ids.context}
								className="input"
								rows={3}
								value={input.context}
								onChange={(event) => setInput({ ...input, context: event.target.value })}
							/>
						</div>
					) : null}
					{plan.kind === "zero-shot" ? (
						<LabelsField id={ids.labels} input={input} setInput={setInput} />
					) : null}
					{plan.kind === "sentence-similarity" ? (
						<div className="field">
							<label htmlFor={ids.context}>Sentences to compare (one per line)</label>
							<textarea
								id={ids.context}
								className="input"
								rows={4}
								value={input.sentences.join("\n")}
								onChange={(event) => setInput({ ...input, sentences: event.target.value.split("\n") })}
							/>
						</div>
					) : null}
				</>
			);
	}
}

function LabelsField({
	id,
	input,
	setInput,
}: {
	id: string;
	input: PlaygroundInput;
	setInput: (input: PlaygroundInput) => void;
}) {
	return (
		<div className="field">
			<label htmlFor={id}>Candidate labels (comma-separated)</label>
			<input
				id={id}
				className="input"
				value={input.candidateLabels}
				onChange={(event) => setInput({ ...input, candidateLabels: event.target.value })}
			/>
		</div>
	);
}

function useObjectUrl(blob: Blob | undefined): string | undefined {
	const [url, setUrl] = useState<string | undefined>(undefined);
	useEffect(() => {
		if (!blob) return;
		const created = URL.createObjectURL(blob);
		setUrl(created);
		return () => URL.revokeObjectURL(created);
	}, [blob]);
	return url;
}

function OutputView({
	output,
	raw,
	plan,
	input,
	file,
}: {
	output: RenderedOutput;
	raw: unknown;
	plan: PlaygroundPlan;
	input: PlaygroundInput;
	file: Blob | undefined;
}) {
	const blobUrl = useObjectUrl(output.kind === "image" || output.kind === "audio" ? output.blob : undefined);
	if (plan.kind === "sentence-similarity") {
		const bars = similarityBars(input.sentences.filter(Boolean), raw);
		if (bars) return <Bars data={bars} caption="Similarity to the source sentence" />;
	}
	switch (output.kind) {
		case "labels":
			return <Bars data={output.bars} caption="Scores" />;
		case "boxes":
			return <BoxesView boxes={output.boxes} image={file} />;
		case "entities": {
			const tokens = output.entities
				.filter((entity) => entity.start !== undefined && entity.end !== undefined)
				.map((entity) => ({ type: entity.label, start: entity.start as number, end: entity.end as number }));
			return tokens.length > 0 ? (
				<TokenText text={input.text} tokens={tokens} caption="Entities" />
			) : (
				<ul>
					{output.entities.map((entity, index) => (
						<li key={index}>
							{entity.word} — {entity.label}
						</li>
					))}
				</ul>
			);
		}
		case "text":
			return <p className="output-text">{output.text}</p>;
		case "image":
			return blobUrl ? <img className="output-image" src={blobUrl} alt="Generated by the model" /> : null;
		case "audio":
			return blobUrl ? (
				<audio controls src={blobUrl}>
					<a href={blobUrl}>Download the audio</a>
				</audio>
			) : null;
		case "json":
			return (
				<pre className="request-text" tabIndex={0} aria-label="Output">
					{output.json}
				</pre>
			);
	}
}

function BoxesView({
	boxes,
	image,
}: {
	boxes: Array<{ label: string; score: number; xmin: number; ymin: number; xmax: number; ymax: number }>;
	image: Blob | undefined;
}) {
	const url = useObjectUrl(image);
	const [size, setSize] = useState<{ width: number; height: number } | undefined>(undefined);
	return (
		<figure className="boxes">
			<div className="boxes-stage">
				{url ? (
					<img
						src={url}
						alt="Input with detected objects outlined"
						onLoad={(event) =>
							setSize({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })
						}
					/>
				) : null}
				{size
					? boxes.map((box, index) => (
							<span
								key={index}
								className={`box token-slot-${index % 6}`}
								style={{
									left: `${(box.xmin / size.width) * 100}%`,
									top: `${(box.ymin / size.height) * 100}%`,
									width: `${((box.xmax - box.xmin) / size.width) * 100}%`,
									height: `${((box.ymax - box.ymin) / size.height) * 100}%`,
								}}
							>
								<span className="box-label">
									{box.label} {(box.score * 100).toFixed(0)}%
								</span>
							</span>
						))
					: null}
			</div>
			<figcaption className="muted small">
				{boxes.length} object{boxes.length === 1 ? "" : "s"}: {boxes.map((box) => box.label).join(", ")}
			</figcaption>
		</figure>
	);
}
