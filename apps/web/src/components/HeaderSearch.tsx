import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { useNavigate } from "react-router";
import type { QuickSearchAnswer } from "@modelhub/hub/api";
import { apiUrl, getJson } from "../api/http";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDebounced } from "../hooks/useDebounced";
import {
	MAX_QUICK_SEARCH,
	modelsSearchHref,
	moveActive,
	QUICK_SEARCH_TYPES,
	SUGGESTIONS_PER_KIND,
	suggestionsOf,
	type Suggestion,
	type SuggestionKind,
} from "../view/quick-search";

/** Typing pauses this long before suggestions are asked for. */
const DEBOUNCE_MS = 200;

const KIND_LABEL: Record<SuggestionKind, string> = {
	model: "Model",
	dataset: "Dataset",
	user: "User",
	org: "Organization",
	all: "Search",
};

/**
 * The search box of every page's header: a combobox (WAI-ARIA 1.2 pattern, list autocomplete) whose
 * suggestions are the hub's models, datasets, users and organisations. Arrow keys move through them, Enter opens
 * the chosen one or, with none chosen, the models page searched for the text; Escape closes the list.
 */
export function HeaderSearch() {
	const navigate = useNavigate();
	const api = useApiOptions();
	const ids = { input: useId(), list: useId() };
	const [text, setText] = useState("");
	const [open, setOpen] = useState(false);
	const [active, setActive] = useState(-1);
	const [found, setFound] = useState<{ text: string; items: Suggestion[] }>({ text: "", items: [] });
	const settled = useDebounced(text.trim(), DEBOUNCE_MS);

	useEffect(() => {
		if (!settled) return;
		const controller = new AbortController();
		const url = apiUrl(api.baseUrl, "/api/quicksearch", {
			q: settled,
			type: [...QUICK_SEARCH_TYPES],
			limit: SUGGESTIONS_PER_KIND,
		});
		getJson<QuickSearchAnswer>(url, { ...api, signal: controller.signal }).then(
			({ data }) => setFound({ text: settled, items: suggestionsOf(data, settled) }),
			// No suggestions is the fallback: Enter still searches the models page.
			() => undefined,
		);
		return () => controller.abort();
	}, [settled, api]);

	const trimmed = text.trim();
	const items = trimmed && found.text === trimmed ? found.items : [];
	const expanded = open && items.length > 0;

	const go = (href: string) => {
		setOpen(false);
		setActive(-1);
		setText("");
		void navigate(href);
	};

	const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
		if (event.key === "ArrowDown" || event.key === "ArrowUp") {
			event.preventDefault();
			setOpen(true);
			setActive((current) =>
				moveActive(open ? current : -1, items.length, event.key as "ArrowDown" | "ArrowUp"),
			);
		} else if (event.key === "Escape") {
			if (expanded) {
				event.preventDefault();
				setOpen(false);
				setActive(-1);
			} else setText("");
		} else if (event.key === "Enter") {
			event.preventDefault();
			const chosen = expanded ? items[active] : undefined;
			if (chosen) go(chosen.href);
			else if (trimmed) go(modelsSearchHref(trimmed));
		}
	};

	return (
		<form
			role="search"
			aria-label="Site"
			className="header-search"
			onSubmit={(event) => event.preventDefault()}
		>
			<label htmlFor={ids.input} className="visually-hidden">
				Search the hub
			</label>
			<input
				id={ids.input}
				type="search"
				role="combobox"
				className="input header-search-input"
				placeholder="Search models, datasets, users…"
				autoComplete="off"
				spellCheck={false}
				maxLength={MAX_QUICK_SEARCH}
				aria-autocomplete="list"
				aria-expanded={expanded}
				aria-controls={ids.list}
				aria-activedescendant={expanded && active >= 0 ? `${ids.list}-${active}` : undefined}
				value={text}
				onChange={(event) => {
					setText(event.target.value);
					setOpen(true);
					setActive(-1);
				}}
				onFocus={() => setOpen(true)}
				onBlur={() => setOpen(false)}
				onKeyDown={onKeyDown}
			/>
			<ul
				id={ids.list}
				role="listbox"
				aria-label="Suggestions"
				className="header-search-list"
				hidden={!expanded}
			>
				{items.map((item, index) => (
					<li
						key={`${item.kind}:${item.label}`}
						id={`${ids.list}-${index}`}
						role="option"
						aria-selected={index === active}
						className="header-search-option"
						// Keeps the focus in the box, so the click is not lost to its blur.
						onMouseDown={(event) => event.preventDefault()}
						onClick={() => go(item.href)}
					>
						<span className="header-search-kind">{KIND_LABEL[item.kind]}</span>
						<span className="header-search-label">{item.label}</span>
						{item.detail ? <span className="header-search-detail">{item.detail}</span> : null}
					</li>
				))}
			</ul>
		</form>
	);
}
