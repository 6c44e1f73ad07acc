import { useEffect, useEffectEvent, useRef, useState } from "react";

/** `value`, once it has stayed the same for `delay` ms (typing does not fire a request per key). */
export function useDebounced<T>(value: T, delay: number): T {
	const [settled, setSettled] = useState(value);
	useEffect(() => {
		const timer = setTimeout(() => setSettled(value), delay);
		return () => clearTimeout(timer);
	}, [value, delay]);
	return settled;
}

/**
 * A text field that follows `value` (the URL's, say) and reports what the person typed once typing
 * pauses for `delay` ms. Changes of `value` from elsewhere (back, a link) show in the field unless the
 * person is typing.
 */
export function useDebouncedDraft(
	value: string,
	onSettle: (text: string) => void,
	delay: number,
): [string, (text: string) => void] {
	const [draft, setDraft] = useState(value);
	const typed = useRef(false);
	const settled = useDebounced(draft, delay);
	// Only a settled draft reports; onSettle may change on every render, so it is read as an event.
	const report = useEffectEvent((text: string) => onSettle(text));
	useEffect(() => {
		if (!typed.current) setDraft(value);
	}, [value]);
	useEffect(() => {
		if (!typed.current) return;
		typed.current = false;
		report(settled);
	}, [settled]);
	const type = (text: string) => {
		typed.current = true;
		setDraft(text);
	};
	return [draft, type];
}
