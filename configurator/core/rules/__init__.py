"""The guides' rules, one module per rule-ID prefix (bud.py holds the BUD-* checks, pwr.py PWR-*, …);
shared.py holds what several families use, order.py the order the engine runs them in, and
catalogue/ the rules' texts, again one module per prefix. Every finding carries its RULES.md ID."""
