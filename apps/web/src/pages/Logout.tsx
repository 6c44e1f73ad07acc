import { useEffect } from "react";
import { useNavigate } from "react-router";
import { signOut } from "../account/session";
import { Loading } from "../components/Status";
import { useDocumentTitle } from "../hooks/useDocumentTitle";

/** `/logout`: ends the session (at the hub too for a browser session) and goes home. */
export default function LogoutPage() {
	const navigate = useNavigate();
	useDocumentTitle("Signing out");
	useEffect(() => {
		signOut();
		navigate("/", { replace: true });
	}, [navigate]);
	return <Loading label="Signing out" />;
}
