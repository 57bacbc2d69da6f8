"""Benchmarks of the compiled code against the Python path, run as modules
(`python3 -m interpreter.benchmarks.compiled_rules`, `compiled_throws`, `compiled_td`): they sit
above both `interpreter/native` and `interpreter/bench.py`, which they import."""
