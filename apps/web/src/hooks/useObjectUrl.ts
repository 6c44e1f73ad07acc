import { useEffect, useState } from "react";

/** An object URL for `blob` while it is shown (revoked when the blob changes or the view goes). */
export function useObjectUrl(blob: Blob | undefined): string | undefined {
	const [url, setUrl] = useState<string | undefined>(undefined);
	useEffect(() => {
		if (!blob) return;
		const created = URL.createObjectURL(blob);
		setUrl(created);
		return () => URL.revokeObjectURL(created);
	}, [blob]);
	return url;
}
