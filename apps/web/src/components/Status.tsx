import type { ReactNode } from "react";

export function Loading({ label = "Loading" }: { label?: string }) {
	return (
		<div className="loading" role="status" aria-live="polite">
			<span className="spinner" aria-hidden="true" />
			<span>{label}…</span>
		</div>
	);
}

export function ErrorNotice({
	title = "Something went wrong",
	children,
}: {
	title?: string;
	children: ReactNode;
}) {
	return (
		<div className="notice notice-error" role="alert">
			<strong>{title}</strong>
			<div>{children}</div>
		</div>
	);
}

export function Notice({ children, tone = "info" }: { children: ReactNode; tone?: "info" | "warning" }) {
	return <div className={`notice notice-${tone}`}>{children}</div>;
}
