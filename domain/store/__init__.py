"""The event store: the eventsourcing application underneath (units of work, the cache, commit), the
store-wide signed log chain, its keys and the K deal databases; the only domain package that speaks SQL."""
