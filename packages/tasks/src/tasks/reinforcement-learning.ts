import type { TaskDataCustom } from "./types.js";

const taskData: TaskDataCustom = {
	datasets: [
		{
			description:
				"Offline trajectories from the D4RL benchmark for the MuJoCo HalfCheetah, Hopper and Walker2d tasks at several skill levels, formatted for training Decision Transformers.",
			id: "edbeeching/decision_transformer_gym_replay",
		},
	],
	demo: {
		inputs: [
			{
				type: "text",
				label: "State",
				content:
					"Cart position 0.02 m, cart velocity -0.15 m/s, pole angle 0.04 rad (leaning right), pole angular velocity 0.30 rad/s.",
			},
		],
		outputs: [
			{ type: "text", label: "Action", content: "Push the cart to the right." },
			{
				type: "text",
				label: "Next State",
				content:
					"Cart position 0.02 m, cart velocity 0.05 m/s, pole angle 0.05 rad, pole angular velocity 0.01 rad/s. Reward +1; the episode continues.",
			},
		],
	},
	metrics: [
		{
			description:
				"Sum of the rewards of an episode, each weighted by the discount factor raised to the step at which it arrived, so rewards that come sooner count more.",
			id: "Discounted Total Reward",
		},
		{
			description:
				"Average return per episode over a batch of evaluation episodes, usually reported with its standard deviation.",
			id: "Mean Reward",
		},
		{
			description:
				"Score the agent reaches after a fixed budget of environment steps or training time; a measure of how sample-efficient the learning is.",
			id: "Level of Performance After Some Time",
		},
	],
	models: [
		{
			description:
				"A Decision Transformer trained on expert Hopper trajectories: it treats control as sequence modelling and outputs the action expected to reach a requested return.",
			id: "edbeeching/decision-transformer-gym-hopper-expert",
		},
		{
			description:
				"A PPO agent that balances the pole in the seals version of CartPole, a variant of the classic control task with fixed-length episodes.",
			id: "HumanCompatibleAI/ppo-seals-CartPole-v0",
		},
	],
	spaces: [
		{
			description:
				"Play fetch in the browser with Huggy, a dog agent trained with Unity ML-Agents to chase a thrown stick.",
			id: "ThomasSimonini/Huggy",
		},
		{
			description:
				"A Unity ML-Agents game in the browser where you throw snowballs at an agent trained by reinforcement learning.",
			id: "ThomasSimonini/SnowballFight",
		},
	],
	summary:
		"Reinforcement learning trains an agent to choose actions in an environment so that it collects as much reward as possible over time. The agent learns by trial and error from the states it observes and the rewards its actions bring.",
	widgetModels: [],
	youtubeId: "q0BiUn5LiBc",
};

export default taskData;
