"""Documentation generated from the variant files: the rulebook of a variant (`tablier rules`),
the differences between two variants (`tablier diff`), and the generated sections of
`docs/variants/*.md` (`python3 -m interpreter.rulebook --update-docs`)."""
