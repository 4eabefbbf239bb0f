"""Reading ruleset files safely, `extends` merging, `--set` overrides and explanations of invalid rulesets."""
