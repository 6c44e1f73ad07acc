import { useMemo } from "react";
import { useSettings } from "../settings/store";

/** The hub API options for the current settings (base URL). */
export function useApiOptions(): { baseUrl: string } {
	const { hubUrl } = useSettings();
	return useMemo(() => ({ baseUrl: hubUrl }), [hubUrl]);
}
