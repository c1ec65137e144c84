"""Level names as the API spells them."""

LEVEL_PREFIX = "levels/"


def level_name(level: str) -> str:
    """"arena" and "levels/arena" both name the level levels/arena."""
    return level if level.startswith(LEVEL_PREFIX) else LEVEL_PREFIX + level


def numbered(queries):
    """The queries with request ids 1..n where none was set (a query's
    result carries its request id)."""
    queries = list(queries)
    if all(q.request_id == 0 for q in queries):
        for request_id, query in enumerate(queries, start=1):
            query.request_id = request_id
    return queries
