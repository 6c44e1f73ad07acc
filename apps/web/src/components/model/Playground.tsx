import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { Link } from "react-router";
import { demoAssetUrl } from "../../api/catalogue";
import type { ModelDetail } from "../../api/models";
import { PLAYGROUND_TIMEOUT_MS, usePlayground } from "../../hooks/usePlayground";
import { normalizeBaseUrl, updateSettings, useSettings } from "../../settings/store";
import {
	formatRequest,
	similarityBars,
	type ChatTurn,
	type PlaygroundInput,
	type PlaygroundPlan,
	type RenderedOutput,
	type RunError,
} from "../../view/playground";
import type { ProviderEntry } from "../../view/providers";
import { Bars, TokenText } from "../Demo";
import { Notice } from "../Status";

interface Props {
	model: ModelDetail;
	providers: ProviderEntry[];
	/** The provider chosen in the inference providers widget above (the page's one picker). */
	provider: string | undefined;
}

export default function Playground({ model, providers, provider }: Props) {
	const settings = useSettings();
	const entry = providers.find((candidate) => candidate.provider === provider);
	const playground = usePlayground(model, entry);
	const { plan, input, setInput, draft, setDraft, file, setFile, run, preview, sent } = playground;
	const [fileName, setFileName] = useState<string | undefined>(undefined);
	const [previewOpen] = useState(() => window.matchMedia?.("(min-width: 1000px)").matches ?? true);
	const ids = {
		text: useId(),
		context: useId(),
		labels: useId(),
		file: useId(),
		token: useId(),
		max: useId(),
		timeout: useId(),
	};
	const fileKind = plan.kind === "image" || plan.kind === "audio" ? plan.kind : undefined;

	// The demo picture or clip of the task is the default file, so the form is filled from the start.
	useEffect(() => {
		if (!fileKind) return;
		const controller = new AbortController();
		// The task catalogue is loaded only here, for the tasks that take a file.
		import("../../view/demo-files")
			.then(async ({ demoFile }) => {
				const filename = await demoFile(plan.task, fileKind);
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
	}, [fileKind, plan.task, settings.hubUrl, setFile]);

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

	const onSubmit = (event: FormEvent) => {
		event.preventDefault();
		if (playground.canSend) playground.send();
	};
	const previewText = preview.status === "ready" ? formatRequest(preview.request) : undefined;
	const sentText = sent ? formatRequest(sent) : undefined;

	return (
		<div className="playground" data-kind={plan.kind}>
			<p className="muted small">
				Runs on <strong>{entry.label}</strong> (change it above).
			</p>
			<form className="playground-form" onSubmit={onSubmit} aria-label="Playground">
				{plan.kind === "chat" ? (
					<ChatLog
						turns={playground.turns}
						running={run.running}
						onRetry={playground.retry}
						onRemove={playground.remove}
					/>
				) : null}
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
				<TokenField id={ids.token} />
				<div className="playground-actions">
					<button type="submit" className="btn btn-primary" disabled={!playground.canSend}>
						{run.running ? "Running…" : "Send request"}
					</button>
					{run.running ? (
						<button type="button" className="btn btn-secondary" onClick={playground.stop}>
							Stop
						</button>
					) : null}
					{plan.kind === "chat" && playground.turns.length > 0 && !run.running ? (
						<button type="button" className="btn btn-secondary" onClick={playground.clear}>
							Clear conversation
						</button>
					) : null}
					<Countdown deadline={run.running ? run.deadline : undefined} id={ids.timeout} />
				</div>
				<RunFeedback
					error={run.error}
					stopped={run.stopped}
					// A failed chat turn has its own "Retry this message"; a second button here did the same.
					onRetry={plan.kind !== "chat" && playground.canSend ? playground.send : undefined}
				/>
				{!settings.token ? <p className="muted small">Add a token to send the request.</p> : null}
			</form>

			{/* Open on wide screens; on a phone it is one tap away instead of a screenful of HTTP. */}
			<details className="request-preview" open={previewOpen}>
				<summary>
					<h3 className="demo-heading">Request that will be sent</h3>
				</summary>
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
			</details>

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

			{playground.output ? (
				<div className="playground-output" aria-live="polite">
					<h3 className="demo-heading">Output</h3>
					<OutputView
						output={playground.output.output}
						raw={playground.output.raw}
						plan={plan}
						input={input}
						file={file}
					/>
				</div>
			) : null}
		</div>
	);
}

/**
 * The access token, in memory (see Settings). One element for the whole life of the form: it is never
 * swapped for another while typing (the first keystroke used to unmount it and keep one character).
 */
function TokenField({ id }: { id: string }) {
	const { token } = useSettings();
	const input = useRef<HTMLInputElement>(null);
	// Uncontrolled, so the token is never written into a `value` attribute of the page's markup; a
	// change made elsewhere (Settings) is copied into the field's property.
	useEffect(() => {
		if (input.current && input.current.value !== token) input.current.value = token;
	}, [token]);
	return (
		<div className="field">
			<label htmlFor={id}>Access token</label>
			<input
				ref={input}
				id={id}
				type="password"
				className="input"
				autoComplete="off"
				spellCheck={false}
				placeholder="hf_… or a provider key"
				onChange={(event) => updateSettings({ token: event.target.value.trim() })}
			/>
			<span className="muted small">
				Kept in memory only (see <Link to="/settings">Settings</Link>); sent only to the provider or router.
			</span>
		</div>
	);
}

/** The time left before the call is given up, counted down while it runs. */
function Countdown({ deadline, id }: { deadline: number | undefined; id: string }) {
	const [now, setNow] = useState(() => Date.now());
	useEffect(() => {
		if (deadline === undefined) return;
		setNow(Date.now());
		const timer = setInterval(() => setNow(Date.now()), 1000);
		return () => clearInterval(timer);
	}, [deadline]);
	if (deadline === undefined) {
		return (
			<span className="muted small" id={id}>
				Times out after {PLAYGROUND_TIMEOUT_MS / 1000} s without an answer.
			</span>
		);
	}
	const left = Math.max(0, Math.ceil((deadline - now) / 1000));
	return (
		<span className="muted small" id={id} data-testid="timeout-countdown">
			Times out in {left} s
		</span>
	);
}

/** What went wrong (or that Stop worked), right under the Send button. */
function RunFeedback({
	error,
	stopped,
	onRetry,
}: {
	error: RunError | undefined;
	stopped: boolean | undefined;
	onRetry: (() => void) | undefined;
}) {
	const shown = useRef<HTMLDivElement>(null);
	// The form can be taller than the window (a long chat, a file preview): bring the error to the user.
	useEffect(() => {
		if (error) shown.current?.scrollIntoView({ block: "nearest" });
	}, [error]);
	if (!error) return <div className="run-feedback" role="status" aria-live="polite" />;
	return (
		<div
			ref={shown}
			className={`run-feedback notice ${stopped ? "notice-info" : "notice-error"}`}
			role={stopped ? "status" : "alert"}
			data-testid="run-error"
		>
			<p>
				{error.status !== undefined ? <strong>HTTP {error.status}: </strong> : null}
				{error.message}
			</p>
			{onRetry ? (
				<button type="button" className="btn btn-small" onClick={onRetry}>
					Retry
				</button>
			) : null}
		</div>
	);
}

function ChatLog({
	turns,
	running,
	onRetry,
	onRemove,
}: {
	turns: ChatTurn[];
	running: boolean;
	onRetry: (id: number) => void;
	onRemove: (id: number) => void;
}) {
	if (turns.length === 0) return null;
	return (
		<ol className="chat-log" aria-label="Conversation" aria-live="polite">
			{turns.map((turn) => (
				<li key={turn.id} className="chat-turn" data-status={turn.status}>
					<div className="chat-message chat-user">
						<span className="chat-role">You</span>
						<p>{turn.user}</p>
					</div>
					{turn.answer || turn.status === "streaming" ? (
						<div
							className="chat-message chat-assistant"
							data-streaming={turn.status === "streaming" ? "true" : undefined}
						>
							<span className="chat-role">Model</span>
							<p data-testid={turn.status === "streaming" ? "chat-streaming" : undefined}>
								{turn.answer}
								{turn.status === "streaming" ? <span className="cursor" aria-hidden="true" /> : null}
							</p>
						</div>
					) : null}
					{turn.status === "failed" || turn.status === "stopped" ? (
						<div className="chat-turn-actions">
							<span className="small">
								{turn.status === "stopped" ? "Stopped" : "Failed"}: not part of the conversation sent next.
							</span>
							<button
								type="button"
								className="btn btn-small"
								disabled={running}
								onClick={() => onRetry(turn.id)}
							>
								Retry this message
							</button>
							<button type="button" className="btn btn-small btn-secondary" onClick={() => onRemove(turn.id)}>
								Remove
							</button>
						</div>
					) : null}
				</li>
			))}
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
