declare module "virtual:task-cards" {
	import type { TaskCard } from "./view/task-cards";
	const cards: TaskCard[];
	export default cards;
}
