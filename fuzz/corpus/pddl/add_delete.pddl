(define (domain x) (:predicates (p ?x)) (:action a :parameters (?x) :precondition (p ?x) :effect (and (not (p ?x)) (p ?x))))
;;problem
(define (problem p) (:domain x) (:objects o) (:init (p o)) (:goal (not (p o))))
