"""The event-sourced aggregates, one module each (Tournament, Match, Deal, Appeal, AppealRules, AccessToken,
IdempotentRequest), their ids and the per-deal hash chain; every event topic is explicit and stable."""
