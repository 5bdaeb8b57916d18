"""The use cases, one service per area (fupan.py composes them over one store), each command get → call → save in
one unit of work; the presenters, hidden information and replay they answer with."""
