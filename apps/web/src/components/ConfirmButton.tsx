import { useEffect, useId, useRef, useState, type ReactNode } from "react";

interface ConfirmPromptProps {
	/** What the action does, asked as a question (it describes the confirming button, or the panel). */
	question?: ReactNode;
	/** The confirming button's content (its accessible name). */
	confirm: ReactNode;
	/** The button that backs out. */
	cancel: ReactNode;
	/** Another action is under way: the confirming button waits. */
	busy?: boolean;
	/**
	 * Runs the action; the prompt then closes (`onClose`) once it settles, unless it resolves to `false`
	 * (a failed action whose question should stay).
	 */
	onConfirm: () => Promise<unknown> | void;
	onClose: () => void;
	/**
	 * "inline" (default): the question and two small buttons in the text's flow (a table cell, a row of
	 * actions); "panel": a warning notice with the question above the buttons.
	 */
	variant?: "inline" | "panel";
	className?: string;
}

/**
 * The second step of an action that asks first (it cannot be undone): the question, the action and a way
 * back. `ConfirmButton` shows it in place of its button; a form that shows its first button elsewhere
 * (a comment's header) shows this itself.
 */
export function ConfirmPrompt({
	question,
	confirm,
	cancel,
	busy,
	onConfirm,
	onClose,
	variant = "inline",
	className,
}: ConfirmPromptProps) {
	const questionId = useId();
	// The button pressed to ask has gone: focus moves to the way back, not to the page's start.
	const cancelRef = useRef<HTMLButtonElement>(null);
	useEffect(() => cancelRef.current?.focus(), []);
	const run = () => {
		const settled = onConfirm();
		if (!settled) return onClose();
		void settled.then((outcome) => {
			if (outcome !== false) onClose();
		});
	};
	if (variant === "panel") {
		return (
			<div className={className} role="group" aria-describedby={question ? questionId : undefined}>
				{question ? <p id={questionId}>{question}</p> : null}
				<div className="form-actions">
					<button type="button" className="btn btn-primary btn-small" disabled={busy} onClick={run}>
						{confirm}
					</button>
					<button ref={cancelRef} type="button" className="btn btn-secondary btn-small" onClick={onClose}>
						{cancel}
					</button>
				</div>
			</div>
		);
	}
	return (
		<>
			{question ? (
				<>
					<span id={questionId}>{question}</span>{" "}
				</>
			) : null}
			<button
				type="button"
				className="btn btn-small"
				disabled={busy}
				aria-describedby={question ? questionId : undefined}
				onClick={run}
			>
				{confirm}
			</button>{" "}
			<button ref={cancelRef} type="button" className="btn btn-small" onClick={onClose}>
				{cancel}
			</button>
		</>
	);
}

interface ConfirmButtonProps extends Omit<ConfirmPromptProps, "onClose" | "variant" | "className"> {
	/** The first button's content; the prompt takes its place when it is pressed. */
	children: ReactNode;
	/** The first button's accessible name, when its content is not enough. */
	label?: string;
}

/** A small button whose action asks first: pressed, it gives way to the prompt (`ConfirmPrompt`). */
export function ConfirmButton({ children, label, busy, ...prompt }: ConfirmButtonProps) {
	const [asking, setAsking] = useState(false);
	// Once the prompt closes, focus goes back to this button (when it is still there).
	const returning = useRef(false);
	const buttonRef = useRef<HTMLButtonElement>(null);
	useEffect(() => {
		if (asking || !returning.current) return;
		returning.current = false;
		buttonRef.current?.focus();
	}, [asking]);
	const close = () => {
		returning.current = true;
		setAsking(false);
	};
	if (asking) return <ConfirmPrompt {...prompt} busy={busy} onClose={close} />;
	return (
		<button
			ref={buttonRef}
			type="button"
			className="btn btn-small"
			disabled={busy}
			aria-label={label}
			onClick={() => setAsking(true)}
		>
			{children}
		</button>
	);
}
