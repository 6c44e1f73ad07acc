import { useId, type FormEvent } from "react";
import type { ModelDetail } from "../../../api/models";
import { usePlayground } from "../../../hooks/playground/usePlayground";
import { useSettings } from "../../../settings/store";
import type { ProviderEntry } from "../../../view/providers";
import { ChatLog } from "./ChatLog";
import { Countdown } from "./Countdown";
import { InputFields } from "./InputFields";
import { OutputView } from "./OutputView";
import { RequestPreview, SentRequest } from "./RequestPreview";
import { RunFeedback } from "./RunFeedback";
import { Link } from "react-router";
import { updateSettings } from "../../../settings/store";
import { TokenField } from "../../TokenField";

interface Props {
	model: ModelDetail;
	providers: ProviderEntry[];
	/** The provider chosen in the inference providers widget above (the page's one picker). */
	provider: string | undefined;
}

/** The model page's playground: the form, the request it will send, and the answer. */
export default function Playground({ model, providers, provider }: Props) {
	const settings = useSettings();
	const entry = providers.find((candidate) => candidate.provider === provider);
	const playground = usePlayground(model, entry);
	const { plan, run } = playground;
	const running = run.phase === "running";
	const ids = {
		text: useId(),
		context: useId(),
		labels: useId(),
		file: useId(),
		max: useId(),
		timeout: useId(),
	};

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

	return (
		<div className="playground" data-kind={plan.kind}>
			<p className="muted small">
				Runs on <strong>{entry.label}</strong> (change it above).
			</p>
			<form className="playground-form" onSubmit={onSubmit} aria-label="Playground">
				{plan.kind === "chat" ? (
					<ChatLog
						turns={playground.turns}
						running={running}
						onRetry={playground.retry}
						onRemove={playground.remove}
					/>
				) : null}
				<InputFields
					plan={plan}
					input={playground.input}
					setInput={playground.setInput}
					draft={playground.draft}
					setDraft={playground.setDraft}
					ids={ids}
					fileName={playground.file?.name}
					onFile={(picked) => playground.setFile(picked)}
				/>
				<TokenField
					label="Access token"
					mirror={settings.token}
					placeholder="hf_… or a provider key"
					onToken={(token) => updateSettings({ token })}
					help={
						<>
							Kept in memory only (see <Link to="/settings">Settings</Link>); sent only to the provider or
							router.
						</>
					}
				/>
				<div className="playground-actions">
					<button type="submit" className="btn btn-primary" disabled={!playground.canSend}>
						{running ? "Running…" : "Send request"}
					</button>
					{running ? (
						<button type="button" className="btn btn-secondary" onClick={playground.stop}>
							Stop
						</button>
					) : null}
					{plan.kind === "chat" && playground.turns.length > 0 && !running ? (
						<button type="button" className="btn btn-secondary" onClick={playground.clear}>
							Clear conversation
						</button>
					) : null}
					<Countdown deadline={running ? run.deadline : undefined} id={ids.timeout} />
				</div>
				<RunFeedback
					run={run}
					// A failed chat turn has its own "Retry this message"; a second button here did the same.
					onRetry={plan.kind !== "chat" && playground.canSend ? playground.send : undefined}
				/>
				{!settings.token ? <p className="muted small">Add a token to send the request.</p> : null}
			</form>

			<RequestPreview preview={playground.preview} />
			<SentRequest sent={playground.sent} preview={playground.preview} />

			{playground.output ? (
				<div className="playground-output" aria-live="polite">
					<h3 className="demo-heading">Output</h3>
					<OutputView output={playground.output} />
				</div>
			) : null}
		</div>
	);
}
