package model

// NoteKind is what a note says; the page puts it in words, with the
// names it knows.
type NoteKind int

const (
	NoteText         NoteKind = iota // Text, as it is
	NoteNotComparing                 // a compare key while the compare view is off
	NoteAlike                        // A and B see every seq alike
	NoteOnlyBeyond                   // the only differences are seqs B sees outside A's window
	NoteScanFailed                   // looking for differences failed: Err
	NoteNoMatch                      // a search found nothing: Text is the query
	NoteNoSearch                     // a hit key with no search
	NoteOutside                      // a seq typed outside the viewer's window: Seq
	NoteNothing                      // a jump with no row to jump to
	NoteJumpFailed                   // a date jump failed: Err
)

// Note is what a key had to say: "no message after this one", "no newer
// difference: wrapped to the oldest", "A and B see every seq alike".
type Note struct {
	Kind NoteKind
	Text string
	A, B string // NoteAlike: the two viewers
	Err  error  // NoteScanFailed, NoteJumpFailed
	Seq  int64  // NoteOutside
}

// textNote is a note of words.
func textNote(text string) *Note { return &Note{Kind: NoteText, Text: text} }
