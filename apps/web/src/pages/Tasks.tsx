import { useMemo } from "react";
import { Link } from "react-router";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import cards from "virtual:task-cards";
import index from "virtual:task-index";
import { allTaskCards, taskGroups } from "../view/tasks";

export default function TasksPage() {
	useDocumentTitle("Tasks");
	const groups = useMemo(() => taskGroups(allTaskCards(cards, index)), []);
	return (
		<>
			<h1>Tasks</h1>
			<p className="lead">What machine-learning models do, grouped by the kind of data they work on.</p>
			<nav aria-label="Modalities" className="jump-links">
				<ul>
					{groups.map((group) => (
						<li key={group.modality}>
							<a href={`#modality-${group.modality}`}>{group.label}</a>
						</li>
					))}
				</ul>
			</nav>
			{groups.map((group) => (
				<section key={group.modality} aria-labelledby={`modality-${group.modality}`} className="section">
					<h2 id={`modality-${group.modality}`}>{group.label}</h2>
					<ul className="card-grid">
						{group.tasks.map((task) => (
							<li key={task.id} className={`card task-card accent-${task.color}`}>
								<h3 className="card-title">
									<Link to={`/tasks/${task.id}`}>{task.label}</Link>
								</h3>
								<p className="card-text">{task.placeholder ? "This task has no page yet." : task.summary}</p>
							</li>
						))}
					</ul>
				</section>
			))}
		</>
	);
}
