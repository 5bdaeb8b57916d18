"""The rules kernel: cards, the engine skeleton every game extends, options, the table protocol, commit–reveal
dealing, the hash chain's canonical JSON, and Refusal, the one error type of every layer."""
