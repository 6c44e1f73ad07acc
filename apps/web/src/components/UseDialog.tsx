import { useState, type ReactNode } from "react";
import { Dialog } from "./Dialog";

/**
 * "Use this model" / "Use this dataset": a button opening a dialog of snippets. The body's code is fetched
 * while the pointer or focus is on its way to a click (`preload`), and the body renders only while open, so
 * its chunk is not part of the page's load.
 */
export function UseDialog({
	label,
	title,
	description,
	preload,
	children,
}: {
	label: string;
	title: string;
	description?: string | undefined;
	preload: () => unknown;
	children: () => ReactNode;
}) {
	const [open, setOpen] = useState(false);
	const warm = () => void preload();
	return (
		<Dialog.Root open={open} onOpenChange={setOpen}>
			<Dialog.Trigger className="btn btn-primary" onPointerEnter={warm} onFocus={warm} onTouchStart={warm}>
				{label}
			</Dialog.Trigger>
			<Dialog.Content className="use-dialog">
				<div className="dialog-header">
					<Dialog.Title>{title}</Dialog.Title>
					<Dialog.Close className="btn btn-icon" aria-label="Close">
						<span aria-hidden="true">✕</span>
					</Dialog.Close>
				</div>
				{description ? <Dialog.Description className="muted small">{description}</Dialog.Description> : null}
				{open ? children() : null}
			</Dialog.Content>
		</Dialog.Root>
	);
}
