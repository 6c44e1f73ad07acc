/**
 * The pieces the model and dataset lists share: the search box with the sort, a select filter, the
 * author field, the active filters as removable chips, the folding filter panel and the pagination
 * buttons. Each is controlled by its list's state in the URL; none knows which list it is in.
 */
import { useId, useState, type ReactNode } from "react";
import { useDebouncedDraft } from "../../hooks/useDebounced";

/** Typing pauses this long before the list follows the search box or the author field. */
export const SEARCH_DEBOUNCE_MS = 300;

/** Replace the history entry (typing) rather than push one (a choice). */
export type ListUpdateOptions = { replace?: boolean };

/** The search box follows typing (debounced, replacing the history entry) and the sort order. */
export function SearchAndSort<Sort extends string>({
	what,
	search,
	sort,
	sorts,
	placeholder,
	onSearch,
	onSort,
}: {
	/** "models", "datasets": named in the labels. */
	what: string;
	search: string;
	sort: Sort;
	sorts: ReadonlyArray<{ value: Sort; label: string }>;
	placeholder: string;
	onSearch: (text: string, options: ListUpdateOptions) => void;
	onSort: (sort: Sort) => void;
}) {
	const ids = { search: useId(), sort: useId() };
	const [draft, type] = useDebouncedDraft(
		search,
		(text) => {
			if (text.trim() !== search.trim()) onSearch(text, { replace: true });
		},
		SEARCH_DEBOUNCE_MS,
	);
	const title = what.charAt(0).toUpperCase() + what.slice(1, -1);
	return (
		<form
			className="search-sort"
			role="search"
			aria-label={`${title} search`}
			onSubmit={(event) => {
				event.preventDefault();
				onSearch(draft, {});
			}}
		>
			<div className="field field-grow">
				<label htmlFor={ids.search}>Search {what}</label>
				<input
					id={ids.search}
					type="search"
					className="input"
					value={draft}
					placeholder={placeholder}
					autoComplete="off"
					onChange={(event) => type(event.target.value)}
				/>
			</div>
			<div className="field">
				<label htmlFor={ids.sort}>Sort</label>
				<select
					id={ids.sort}
					className="input"
					value={sort}
					onChange={(event) => onSort(event.target.value as Sort)}
				>
					{sorts.map((option) => (
						<option key={option.value} value={option.value}>
							{option.label}
						</option>
					))}
				</select>
			</div>
		</form>
	);
}

export function SelectFilter({
	label,
	value,
	anyLabel,
	options,
	onChange,
}: {
	label: string;
	value: string;
	anyLabel: string;
	options: ReadonlyArray<{ value: string; label: string }>;
	onChange: (value: string) => void;
}) {
	const id = useId();
	// A value from a link that the list does not offer is still shown (and can be cleared).
	const known = !value || options.some((option) => option.value === value);
	return (
		<div className="field">
			<label htmlFor={id}>{label}</label>
			<select id={id} className="input" value={value} onChange={(event) => onChange(event.target.value)}>
				<option value="">{anyLabel}</option>
				{known ? null : <option value={value}>{value}</option>}
				{options.map((option) => (
					<option key={option.value} value={option.value}>
						{option.label}
					</option>
				))}
			</select>
		</div>
	);
}

export function AuthorFilter({
	author,
	onAuthor,
}: {
	author: string;
	onAuthor: (name: string, options: ListUpdateOptions) => void;
}) {
	const id = useId();
	const [draft, type] = useDebouncedDraft(
		author,
		(text) => {
			// Only whole names the hub accepts are sent; a half-typed one with a space waits.
			if (text.trim() !== author && /^[A-Za-z0-9][A-Za-z0-9._-]*$|^$/.test(text.trim())) {
				onAuthor(text.trim(), { replace: true });
			}
		},
		SEARCH_DEBOUNCE_MS,
	);
	return (
		<div className="field">
			<label htmlFor={id}>Author</label>
			<input
				id={id}
				className="input"
				value={draft}
				placeholder="User or organisation"
				autoComplete="off"
				onChange={(event) => type(event.target.value)}
			/>
		</div>
	);
}

/** The active filters, each a button that removes it, and "Clear all". */
export function FilterChips({
	chips,
	onRemove,
	onClear,
}: {
	chips: ReadonlyArray<{ label: string }>;
	onRemove: (index: number) => void;
	onClear: () => void;
}) {
	if (chips.length === 0) return null;
	return (
		<ul className="chip-list" aria-label="Active filters">
			{chips.map((chip, index) => (
				<li key={chip.label}>
					<button
						type="button"
						className="chip chip-removable"
						aria-label={`Remove filter ${chip.label}`}
						onClick={() => onRemove(index)}
					>
						{chip.label} <span aria-hidden="true">×</span>
					</button>
				</li>
			))}
			<li>
				<button type="button" className="btn btn-small btn-secondary" onClick={onClear}>
					Clear all
				</button>
			</li>
		</ul>
	);
}

/** The filter fields beside the list on wide screens; on a phone folded, so the search and list come first. */
export function FilterPanel({ children }: { children: ReactNode }) {
	const [open] = useState(() => window.matchMedia?.("(min-width: 900px)").matches ?? true);
	return (
		<aside className="filter-panel" aria-label="Filters">
			<details className="filter-details" open={open}>
				<summary>Filters</summary>
				<div className="filter-fields">{children}</div>
			</details>
		</aside>
	);
}

export function Pagination({
	hasPrevious,
	hasNext,
	onPrevious,
	onNext,
}: {
	hasPrevious: boolean;
	hasNext: boolean;
	onPrevious: () => void;
	onNext: () => void;
}) {
	return (
		<nav aria-label="Pagination" className="pagination">
			<button type="button" className="btn btn-secondary" disabled={!hasPrevious} onClick={onPrevious}>
				← Previous
			</button>
			<button type="button" className="btn btn-secondary" disabled={!hasNext} onClick={onNext}>
				Next →
			</button>
		</nav>
	);
}
