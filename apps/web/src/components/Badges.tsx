import { Link } from "react-router";

export function TaskBadge({ id, label, color }: { id: string; label: string; color?: string }) {
	return (
		<Link to={`/tasks/${id}`} className={`badge badge-task badge-${color ?? "neutral"}`}>
			{label}
		</Link>
	);
}

export function StatusBadge({ status }: { status: "live" | "staging" | string }) {
	return (
		<span className={`badge badge-status badge-status-${status === "live" ? "live" : "staging"}`}>
			<span aria-hidden="true" className="status-dot" />
			{status === "live" ? "Live" : "Staging"}
		</span>
	);
}
