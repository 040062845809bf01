"""The Ultimate Texas Hold'em rules engine: standard library only, immutable values, no I/O."""
