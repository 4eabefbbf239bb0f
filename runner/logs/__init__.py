"""Game logs: the one codec for gzip or plain JSON lines, and the verifier, which checks a log without the engine."""
