import type { PlaygroundInput, PlaygroundPlan } from "../../../view/playground/plan";

/** The form of the plan's kind: a message, a text (with context, labels or sentences), or a file. */
export function InputFields({
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
					{plan.fn === "zeroShotImageClassification" ? (
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
