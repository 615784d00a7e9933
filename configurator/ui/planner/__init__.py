"""The Planner tab: pick parts, see the guides' rules and the estimates live, export a build sheet."""
