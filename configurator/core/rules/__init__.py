"""The guides' rules, one module per topic; every finding carries its RULES.md ID."""
