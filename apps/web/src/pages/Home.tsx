import { useEffect, useMemo, useRef, useState } from "react";
import { Link, useNavigate } from "react-router";
import type { LibraryInfo } from "@modelhub/hub/api";
import { listLibraries } from "../api/catalogue";
import { listModels, type ModelSummary } from "../api/models";
import { Field } from "../components/Field";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDocumentTitle } from "../hooks/useDocumentTitle";
import { formatCount } from "../view/format";
import { modelHref } from "../view/model";
import { searchItems, type SearchItem } from "../view/search";
import cards from "virtual:task-cards";
import type { TaskCard } from "../view/task-cards";
import { groupByModality } from "../view/task-groups";

export default function Home() {
	useDocumentTitle(undefined);
	const groups = useMemo(() => groupByModality(cards), []);
	return (
		<>
			<section className="hero" aria-labelledby="hero-title">
				<h1 id="hero-title">Find a model, understand the task, ship the code.</h1>
				<p className="lead">
					Browse {cards.length} machine-learning tasks and the libraries that run them, then copy working code
					for any model or try it right here.
				</p>
				<HomeSearch cards={cards} />
			</section>
			<section aria-labelledby="tasks-title" className="section">
				<div className="section-heading">
					<h2 id="tasks-title">Tasks by modality</h2>
					<Link to="/tasks">All tasks</Link>
				</div>
				{groups.map((group) => (
					<div key={group.modality} className="modality-group">
						<h3 className="modality-title">{group.label}</h3>
						<ul className="chip-grid">
							{group.tasks.map((task) => (
								<li key={task.id}>
									<Link to={`/tasks/${task.id}`} className={`task-chip accent-${task.color}`}>
										{task.label}
										{task.placeholder ? <span className="chip-note"> (soon)</span> : null}
									</Link>
								</li>
							))}
						</ul>
					</div>
				))}
			</section>
		</>
	);
}

function HomeSearch({ cards }: { cards: TaskCard[] }) {
	const api = useApiOptions();
	const navigate = useNavigate();
	const [query, setQuery] = useState("");
	const [libraries, setLibraries] = useState<LibraryInfo[] | undefined>(undefined);
	const [models, setModels] = useState<{ query: string; items: ModelSummary[]; error?: boolean }>({
		query: "",
		items: [],
	});
	const librariesRequested = useRef(false);
	const trimmed = query.trim();

	// The library list is fetched once, the first time someone types.
	useEffect(() => {
		if (!trimmed || librariesRequested.current) return;
		librariesRequested.current = true;
		listLibraries(api).then(setLibraries, () => setLibraries([]));
	}, [trimmed, api]);

	useEffect(() => {
		if (!trimmed) return;
		const controller = new AbortController();
		const timer = setTimeout(() => {
			listModels(
				{ search: trimmed, limit: 6, sort: "downloads", direction: -1 },
				{ ...api, signal: controller.signal },
			).then(
				(page) => setModels({ query: trimmed, items: page.models }),
				() => {
					if (!controller.signal.aborted) setModels({ query: trimmed, items: [], error: true });
				},
			);
		}, 150);
		return () => {
			clearTimeout(timer);
			controller.abort();
		};
	}, [trimmed, api]);

	const items = useMemo<SearchItem[]>(
		() => [
			...cards.map((task) => ({
				kind: "task" as const,
				id: task.id,
				label: task.label,
				href: `/tasks/${task.id}`,
			})),
			...(libraries ?? []).map((library) => ({
				kind: "library" as const,
				id: library.key,
				label: library.prettyLabel,
				href: `/libraries/${encodeURIComponent(library.key)}`,
			})),
		],
		[cards, libraries],
	);
	const matches = useMemo(() => searchItems(items, trimmed, 12), [items, trimmed]);
	const taskMatches = matches.filter((item) => item.kind === "task").slice(0, 6);
	const libraryMatches = matches.filter((item) => item.kind === "library").slice(0, 6);
	const modelMatches = models.query === trimmed ? models.items : [];
	const total = taskMatches.length + libraryMatches.length + modelMatches.length;

	return (
		<div className="home-search">
			<form
				role="search"
				aria-label="Search ModelHub"
				onSubmit={(event) => {
					event.preventDefault();
					// Enter goes to every matching model, as the "All matching models" link does.
					if (trimmed) void navigate(`/models?search=${encodeURIComponent(trimmed)}`);
				}}
			>
				<Field label="Search tasks, libraries and models" labelHidden className="home-search-field">
					{(control) => (
						<input
							{...control}
							type="search"
							className="input input-large"
							placeholder="Search tasks, libraries, models…"
							autoComplete="off"
							value={query}
							onChange={(event) => setQuery(event.target.value)}
						/>
					)}
				</Field>
			</form>
			<p className="visually-hidden" role="status" aria-live="polite">
				{trimmed ? `${total} results` : ""}
			</p>
			{trimmed ? (
				<div className="search-results">
					<ResultGroup
						title="Tasks"
						items={taskMatches.map((item) => ({ key: item.id, href: item.href, label: item.label }))}
					/>
					<ResultGroup
						title="Libraries"
						items={libraryMatches.map((item) => ({ key: item.id, href: item.href, label: item.label }))}
					/>
					<ResultGroup
						title="Models"
						items={modelMatches.map((model) => ({
							key: model.id,
							href: modelHref(model.id),
							label: model.id,
							detail: `${formatCount(model.downloads)} downloads`,
						}))}
						more={
							modelMatches.length > 0
								? { href: `/models?search=${encodeURIComponent(trimmed)}`, label: "All matching models" }
								: undefined
						}
						empty={models.error ? "The hub could not be reached." : undefined}
					/>
				</div>
			) : null}
		</div>
	);
}

function ResultGroup({
	title,
	items,
	more,
	empty = "No matches.",
}: {
	title: string;
	items: Array<{ key: string; href: string; label: string; detail?: string }>;
	more?: { href: string; label: string };
	empty?: string;
}) {
	return (
		<div className="result-group">
			<h2 className="result-title">{title}</h2>
			{items.length === 0 ? (
				<p className="muted">{empty}</p>
			) : (
				<ul className="result-list">
					{items.map((item) => (
						<li key={item.key}>
							<Link to={item.href}>{item.label}</Link>
							{item.detail ? <span className="muted"> · {item.detail}</span> : null}
						</li>
					))}
				</ul>
			)}
			{more ? (
				<Link to={more.href} className="more-link">
					{more.label} →
				</Link>
			) : null}
		</div>
	);
}
