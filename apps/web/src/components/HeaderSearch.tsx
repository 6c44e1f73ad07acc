import { useEffect, useId, useState, type KeyboardEvent } from "react";
import { useNavigate } from "react-router";
import type { quickSuggestions } from "../api/quick-suggestions";
import { useApiOptions } from "../hooks/useApiOptions";
import { useDebounced } from "../hooks/useDebounced";
import {
	MAX_QUICK_SEARCH,
	modelsSearchHref,
	moveActive,
	type Suggestion,
	type SuggestionKind,
} from "../view/search-box";

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
 * What asks for the suggestions loads when the box is first focused (a page's first load is without it);
 * text typed before it is in is asked for once it is.
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
	const [suggest, setSuggest] = useState<typeof quickSuggestions>();

	const loadSuggest = () => {
		if (suggest) return;
		// A failed load leaves the box without suggestions until the next focus tries again.
		import("../api/quick-suggestions").then(
			(module) => setSuggest(() => module.quickSuggestions),
			() => undefined,
		);
	};

	useEffect(() => {
		if (!settled || !suggest) return;
		const controller = new AbortController();
		suggest(settled, { ...api, signal: controller.signal }).then(
			(items) => setFound({ text: settled, items }),
			// No suggestions is the fallback: Enter still searches the models page.
			() => undefined,
		);
		return () => controller.abort();
	}, [settled, api, suggest]);

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
				onFocus={() => {
					setOpen(true);
					loadSuggest();
				}}
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
