"""The use cases, one service per area, each command get → call → save in one unit of work; the presenters,
hidden information and replay they answer with."""
