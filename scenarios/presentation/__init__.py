"""The presentation of engine states and traces, for every page that shows a scenario.

``present`` runs a variant under an era and returns its board, explained steps and
answers; ``board`` draws a game state; ``explain`` words a trace; ``cardtext`` gives card
texts by era; ``labels`` and ``wording`` hold the small words around them (era labels,
names, Italian's euphonic d). Both apps use it: the quiz (questions, feedback, rule
history) and the authoring pages (preview, card catalog).
"""
