import type { FormKind, PlaygroundInput, PlaygroundPlan } from "../../../view/playground/plan";

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
					<TextField id={ids.text} label="Message" rows={3} value={draft} onChange={setDraft} />
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
		case "unsupported":
			// The playground shows no form then (Playground.tsx).
			return null;
		default: {
			const box = TEXT_BOXES[plan.kind];
			return (
				<>
					<TextField
						id={ids.text}
						label={box.label}
						rows={box.rows}
						value={input.text}
						onChange={(text) => setInput({ ...input, text })}
					/>
					{plan.kind === "question-answering" ? (
						<TextField
							id={ids.context}
							label="Context"
							rows={3}
							value={input.context}
							onChange={(context) => setInput({ ...input, context })}
						/>
					) : null}
					{plan.kind === "zero-shot" ? (
						<LabelsField id={ids.labels} input={input} setInput={setInput} />
					) : null}
					{plan.kind === "sentence-similarity" ? (
						<TextField
							id={ids.context}
							label="Sentences to compare (one per line)"
							rows={4}
							value={input.sentences.join("\n")}
							onChange={(text) => setInput({ ...input, sentences: text.split("\n") })}
						/>
					) : null}
				</>
			);
		}
	}
}

/** The first text box of each text form: its label and height (the forms' second boxes follow it). */
const TEXT_BOXES: Readonly<Record<Exclude<FormKind, "image" | "audio">, { label: string; rows: number }>> = {
	text: { label: "Input", rows: 4 },
	"question-answering": { label: "Question", rows: 2 },
	"zero-shot": { label: "Input", rows: 2 },
	"sentence-similarity": { label: "Source sentence", rows: 2 },
};

/** A labelled text box: every text the forms take goes through this one shape. */
function TextField({
	id,
	label,
	rows,
	value,
	onChange,
}: {
	id: string;
	label: string;
	rows: number;
	value: string;
	onChange: (text: string) => void;
}) {
	return (
		<div className="field">
			<label htmlFor={id}>{label}</label>
			<textarea
				id={id}
				className="input"
				rows={rows}
				value={value}
				onChange={(event) => onChange(event.target.value)}
			/>
		</div>
	);
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
