"""The fupan.deal/1 record (parse, fold, judge, check, build), retractions, score slips and annotations: how a
deal's actions and facts are read and folded through its engine."""
