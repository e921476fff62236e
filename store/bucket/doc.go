// Package bucket is the storage contract of OpenIM's msg collection and the
// small collections beside it, with no I/O: the documents (a msg document
// is one bucket of BucketSize slots, slot i holding seq index*100+i+1), the
// addressing between doc_id, seq and slot, the decoding of raw documents
// into Buckets that never fail, the checks of a slot against the contract,
// the statuses, roles and session types a message carries, and the Window
// a user may see; and the Backend contract that every backend serves
// (contract.go), declared here and run elsewhere, so a backend imports
// this package and not store. store reads and writes these through a
// backend; projection turns them into what a viewer sees and imports
// nothing else of store.
//
// It is named for the bucket because every rule here follows from the
// bucket layout (pkg/common/storage/model/msg.go and
// pkg/common/storage/database/mgo/msg.go in open-im-server).
package bucket
