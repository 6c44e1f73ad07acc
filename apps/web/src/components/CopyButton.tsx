import { useEffect, useRef, useState } from "react";

type CopyState = "idle" | "copied" | "failed";

/** Writes text to the clipboard; the outcome is shown on the button and announced to screen readers. */
export async function copyText(text: string): Promise<boolean> {
	try {
		await navigator.clipboard.writeText(text);
		return true;
	} catch {
		return false;
	}
}

export function CopyButton({
	text,
	label = "Copy",
	className,
}: {
	text: string;
	label?: string;
	className?: string;
}) {
	const [state, setState] = useState<CopyState>("idle");
	const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
	useEffect(() => () => clearTimeout(timer.current), []);

	async function onClick() {
		const ok = await copyText(text);
		setState(ok ? "copied" : "failed");
		clearTimeout(timer.current);
		timer.current = setTimeout(() => setState("idle"), 2000);
	}

	const shown = state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : label;
	return (
		<>
			<button
				type="button"
				className={`btn btn-small copy-button${className ? ` ${className}` : ""}`}
				data-state={state}
				onClick={onClick}
			>
				<svg aria-hidden="true" className="copy-icon" width="14" height="14" viewBox="0 0 16 16">
					{state === "copied" ? (
						<path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="1.8" />
					) : (
						<>
							<rect
								x="5"
								y="5"
								width="8.5"
								height="8.5"
								rx="1.5"
								fill="none"
								stroke="currentColor"
								strokeWidth="1.5"
							/>
							<path
								d="M10.5 3V2.5A1.5 1.5 0 0 0 9 1H3.5A1.5 1.5 0 0 0 2 2.5V8a1.5 1.5 0 0 0 1.5 1.5H4"
								fill="none"
								stroke="currentColor"
								strokeWidth="1.5"
							/>
						</>
					)}
				</svg>
				{shown}
			</button>
			<span className="visually-hidden" role="status" aria-live="polite">
				{state === "copied" ? "Copied to the clipboard" : state === "failed" ? "Could not copy" : ""}
			</span>
		</>
	);
}
